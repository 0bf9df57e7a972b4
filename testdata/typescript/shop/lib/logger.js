/** Writes lines with a prefix. */
export class Logger {
  constructor(prefix) {
    this.prefix = prefix;
    this.lines = [];
  }

  info(msg) {
    this.write("INFO", msg);
  }

  warn(msg) {
    this.write("WARN", msg);
  }

  write(level, msg) {
    this.lines.push(`${level} ${this.prefix}: ${msg}`);
    console.log(this.lines[this.lines.length - 1]);
  }
}

export const root = new Logger("root");
