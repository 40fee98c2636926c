import { SingleBar } from 'cli-progress';
import type { ImportKind } from './imported-record.entity';
import type { ImportResult } from './import-writer';

/** Where an import's progress and messages go: process.stderr, or a fake in tests. */
export interface ReportStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

type Counts = Record<ImportResult | 'failed', number>;

/** The order kinds are imported and summarised in. */
export const IMPORT_KINDS: readonly ImportKind[] = ['category', 'tag', 'venue', 'organizer', 'event'];

/**
 * What an import did, per kind (created, updated, unchanged, failed), its failures said as they
 * happen, and a progress bar per kind on a terminal only (cli-progress: a maintained bar that
 * redraws one line and copes with terminal width; pipes and logs get the summary alone).
 */
export class ImportReport {
  private readonly counts = new Map<ImportKind, Counts>();
  private bar: SingleBar | null = null;
  private current: ImportKind | null = null;

  constructor(
    private readonly out: ReportStream = process.stderr,
    private readonly dryRun = false,
  ) {}

  /** A kind starts: `total` records to go through (again for the same kind: its next page, nothing to do). */
  begin(kind: ImportKind, total: number): void {
    if (this.current === kind) return;
    this.end();
    this.current = kind;
    this.of(kind);
    if (!this.out.isTTY || total === 0) return;
    this.bar = new SingleBar(
      { format: `${plural(kind).padEnd(10)} [{bar}] {value}/{total}`, stream: this.out as NodeJS.WritableStream, hideCursor: true, clearOnComplete: false },
      undefined,
    );
    this.bar.start(total, 0);
  }

  /** One record of `kind` went `result`. */
  count(kind: ImportKind, result: ImportResult | 'failed'): void {
    this.of(kind)[result]++;
    this.bar?.increment();
  }

  /** A record failed: said at once (above the bar), with which record and why. */
  fail(kind: ImportKind, record: string, message: string): void {
    this.count(kind, 'failed');
    const line = `failed ${kind} ${record}: ${message}\n`;
    if (this.bar) {
      // The bar owns the current line: clear it, say the failure, let the bar draw again.
      this.out.write(`\r\x1b[K${line}`);
      this.bar.render();
    } else this.out.write(line);
  }

  /** Stops the current bar (a kind is done, or the run ends). */
  end(): void {
    this.current = null;
    this.bar?.stop();
    this.bar = null;
  }

  /** The counts of every kind together. */
  totals(): Counts {
    const sum: Counts = { created: 0, updated: 0, unchanged: 0, kept_local: 0, failed: 0 };
    for (const c of this.counts.values()) for (const k of Object.keys(sum) as (keyof Counts)[]) sum[k] += c[k];
    return sum;
  }

  get failed(): number {
    return [...this.counts.values()].reduce((n, c) => n + c.failed, 0);
  }

  /** One line per kind that was seen, then a total. */
  summary(): string {
    this.end();
    const verb = this.dryRun ? ['would create', 'would update'] : ['created', 'updated'];
    const lines = IMPORT_KINDS.filter((k) => this.counts.has(k)).map((kind) => {
      const c = this.counts.get(kind)!;
      return `  ${plural(kind).padEnd(11)} ${verb[0]} ${c.created}, ${verb[1]} ${c.updated}, unchanged ${c.unchanged}, ${c.kept_local > 0 ? `kept as edited here ${c.kept_local}, ` : ''}failed ${c.failed}`;
    });
    return `${this.dryRun ? 'Dry run (nothing written)' : 'Import done'}:\n${lines.join('\n')}\n`;
  }

  /** Counts of one kind (for tests and scripts). */
  countsOf(kind: ImportKind): Counts {
    return { ...this.of(kind) };
  }

  private of(kind: ImportKind): Counts {
    let c = this.counts.get(kind);
    if (!c) this.counts.set(kind, (c = { created: 0, updated: 0, unchanged: 0, kept_local: 0, failed: 0 }));
    return c;
  }
}

function plural(kind: ImportKind): string {
  return kind === 'category' ? 'categories' : `${kind}s`;
}
