/**
 * Requests for one key that are being answered now, so that requests missing the same key
 * together wait for the first one's answer instead of computing it again (single-flight). The
 * first caller leads (`lead()`), the ones after it while it runs wait (`join()`), and the leader
 * settles its flight with what they are to get: its answer, whatever its status (an error
 * included), or `undefined` when it has nothing to share (its request was aborted, or its body
 * is a stream), and each of them then computes its own.
 *
 * A flight belongs to the data generation it started in: a caller of another generation (a
 * write committed since the leader started) neither joins it nor is replaced by it, and the
 * flight's answer is never kept beyond its waiters (keeping is the cache's business, which
 * compares generations itself).
 */
export class AnswerFlights<T> {
  private readonly flying = new Map<string, Flight<T>>();

  /** The answer of the flight of `key` started in `generation`, to wait for; undefined when there is none (lead one). */
  join(key: string, generation: number): Promise<T | undefined> | undefined {
    const flight = this.flying.get(key);
    return flight?.generation === generation ? flight.answer : undefined;
  }

  /** Starts the flight of `key` in `generation`: its waiters get what `settle` is given. */
  lead(key: string, generation: number): Flight<T> {
    const flight = new Flight<T>(generation, (done) => {
      if (this.flying.get(key) === done) this.flying.delete(key);
    });
    this.flying.set(key, flight);
    return flight;
  }

  /** How many flights are under way (for tests). */
  get size(): number {
    return this.flying.size;
  }
}

export class Flight<T> {
  readonly answer: Promise<T | undefined>;
  private resolve!: (value: T | undefined) => void;
  private settled = false;

  constructor(
    readonly generation: number,
    private readonly landed: (flight: Flight<T>) => void,
  ) {
    this.answer = new Promise((resolve) => (this.resolve = resolve));
  }

  /** Hands `value` to the waiters (once: later calls do nothing) and ends the flight. */
  settle(value: T | undefined): void {
    if (this.settled) return;
    this.settled = true;
    this.landed(this);
    this.resolve(value);
  }
}
