// What the agent reads: the system prompt documenting the action format and the commands, the first
// user message (the issue and the repository's files), and the text of a format error. How these
// become model text (a chat template or the plain one) is render.ts's job.
import { EXPECTED_FORM, USAGE } from './commands.ts';
import { VIEW_WINDOW } from './tools.ts';

/** How the chosen edit command is documented (agent.editCommand picks one; the prompt shows only it). */
const EDIT_DOCS: Record<EditCommandKind, string> = {
  replace: `replace PATH
  Edit a file. After the command line, write one or more edit blocks:
<<<<<<< SEARCH
the old lines, copied exactly from the file (they must occur exactly once)
=======
the new lines
>>>>>>> REPLACE`,
  edit: `${USAGE.edit.split(',')[0]}
  Edit a file: lines START to END (as view numbers them) become the lines you write after the command line
  (none deletes them; END = START - 1 inserts before line START). An edit that would leave a JavaScript file
  that does not parse is refused. Without PATH, view and edit use the open file (the one the last command
  read or changed), or the repository's only source file. Example:
edit src/roman.js 12 12
  if (n >= value) {`,
  sub: `${USAGE.sub}
  Change text on one line: on line LINE (as view numbers it), OLD, which must occur there exactly once,
  becomes NEW (none deletes OLD). Quote text with spaces: sub 12 "n > value" "n >= value". Without PATH it
  changes the open file (the one the last command read or changed), or the repository's only source file.
  A change that would leave a JavaScript file that does not parse is refused. For larger changes:
${USAGE.edit.split(',')[0]}
  Lines START to END become the lines you write after the command line (none deletes them).`,
};

export type EditCommandKind = 'replace' | 'edit' | 'sub';

/** What agent.subTests adds to sub's documentation. */
const SUB_TESTS_DOC = `
  Then the tests run: the change stays when every test passes, and is taken back at once when any fails.`;

/** The full system prompt (pretrained models): the action format and every command, with the chosen edit
 *  command (and sub's test run under agent.subTests). */
export function fullSystemPrompt(editCommand: EditCommandKind = 'replace', subTests = false): string {
  return `You are a software engineer fixing a bug in a small JavaScript repository (ES modules; the tests use node:test). You work in turns. In each turn, write your reasoning in a few sentences, then exactly one command in a fenced block whose info string is \`command\`. The block ends the turn; the environment runs the command and replies with its output.

Example turn:
The test says toRoman(4) returns "IIII"; let me look at the subtractive table.
\`\`\`command
view src/roman.js 1 40
\`\`\`

Commands:
${USAGE.view}
  Show lines START to END of a file, numbered (at most ${VIEW_WINDOW} lines; default: from line 1).
${USAGE.search}
  Show the lines that contain TEXT (plain text, case-sensitive), with file and line number, in PATH (a file or a folder; default: the whole repository). Quote TEXT that contains spaces: search "return lo" src
${editCommand === 'sub' && subTests ? EDIT_DOCS.sub.replace('is refused.', `is refused.${SUB_TESTS_DOC}`) : EDIT_DOCS[editCommand]}
create PATH
  Write a whole file (folders are created as needed): after the command line, the file's full text.
${USAGE.run_tests}
  Run the tests (or only the test with this full name, e.g. run_tests roman > toRoman > uses subtractive notation) and show each test's result and the failure messages.
${USAGE.submit}
  Finish. Your changes are then graded by the repository's original tests (editing the tests does not change the grade).

Paths are relative to the repository root. Long outputs are cut in the middle with a marker. If the text in a block contains a line of three backticks, open the block with four (\`\`\`\`command) and close it with four.`;
}

/** The full prompt with SEARCH/REPLACE edits (what pretrained presets read by default). */
export const SYSTEM_PROMPT = fullSystemPrompt('replace');

/** The one-line system prompt of from-scratch models (agent.systemPrompt = brief): such a model
 *  cannot read the full one and learns the format from expert episodes instead, and the full one
 *  costs ~775 tokens of a micro episode's budget (a quarter of its context, and of its attention
 *  work) in every episode. */
export const BRIEF_SYSTEM_PROMPT = 'Fix the bug. One command per turn.';

export type SystemPromptKind = 'full' | 'brief';
export const systemPrompt = (kind: SystemPromptKind | undefined, editCommand: EditCommandKind = 'replace', subTests = false): string =>
  kind === 'brief' ? BRIEF_SYSTEM_PROMPT : fullSystemPrompt(editCommand, subTests);

/** The first user message: the issue, then every file of the repository. */
export function issueMessage(repo: string, problem: string, files: readonly string[]): string {
  return `Fix this issue in the repository "${repo}".\n\n${problem.trim()}\n\nFiles in the repository:\n${files.join('\n')}`;
}

/** The observation of a turn that broke the action format. */
export function formatErrorMessage(error: string): string {
  return `Format error: ${error}. The turn was not run.\n${EXPECTED_FORM}`;
}
