// Markdown from task files (an issue's text) as HTML for the page: rendered by `marked`, then sanitised
// by DOMPurify, since a task file is anything a user imported (no scripts, handlers or frames survive).
import DOMPurify from 'dompurify';
import { marked } from 'marked';

/** The element's content becomes the rendered, sanitised Markdown. */
export function setMarkdown(target: HTMLElement, markdown: string): HTMLElement {
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: false });
  target.innerHTML = DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
  target.classList.add('markdown');
  return target;
}
