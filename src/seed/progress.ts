/** Where progress goes: process.stderr, or a fake in tests. */
export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

const BAR_WIDTH = 30;
/** A terminal is redrawn at most this often. */
const REDRAW_MS = 100;

/**
 * A progress bar on a terminal (one line redrawn with `\r`), or a line every 10% elsewhere
 * (logs and pipes are not terminals).
 */
export class Progress {
  private readonly started = Date.now();
  private lastDraw = 0;
  private lastTenth = 0;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly out: ProgressStream = process.stderr,
  ) {}

  update(done: number): void {
    const fraction = this.total === 0 ? 1 : Math.min(1, done / this.total);
    if (this.out.isTTY) {
      const now = Date.now();
      if (now - this.lastDraw < REDRAW_MS && done < this.total) return;
      this.lastDraw = now;
      const filled = Math.round(fraction * BAR_WIDTH);
      const bar = `${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}`;
      this.out.write(`\r${this.label} [${bar}] ${pct(fraction)} ${count(done)}/${count(this.total)} ${this.elapsed()}`);
      return;
    }
    const tenth = Math.floor(fraction * 10);
    if (tenth > this.lastTenth) {
      this.lastTenth = tenth;
      this.out.write(`${this.label}: ${pct(fraction)} (${count(done)}/${count(this.total)}) ${this.elapsed()}\n`);
    }
  }

  /** Ends the bar's line on a terminal. */
  finish(): void {
    if (this.out.isTTY) this.out.write('\n');
  }

  private elapsed(): string {
    return `${((Date.now() - this.started) / 1000).toFixed(1)} s`;
  }
}

const pct = (fraction: number) => `${Math.floor(fraction * 100)}%`.padStart(4);
const count = (n: number) => n.toLocaleString('en-US');
