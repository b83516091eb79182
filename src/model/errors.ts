// The one error type of the model's input/output layer (config.json, safetensors, tokenizer files):
// a one-line message that names the file, the field or tensor, what was found and what to do.
// The CLI prints `message` alone (no stack) and exits non-zero.

export class ModelFileError extends Error {
  override readonly name = 'ModelFileError';
  /** The file the message is about (config.json, model.safetensors, tokenizer.json, …). */
  readonly file: string;
  constructor(file: string, detail: string) {
    super(`${file}: ${detail}`);
    this.file = file;
  }
}
