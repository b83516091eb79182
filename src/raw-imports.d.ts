// A file's text, as Vite's `?raw` import gives it (webcontainer.browser.ts mounts node-reporter.mjs
// this way). vite/client declares it for page and worker code; the core and node configs read it here.
declare module '*.mjs?raw' {
  const text: string;
  export default text;
}
