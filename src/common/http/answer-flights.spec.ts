import { AnswerFlights } from './answer-flights';

describe('AnswerFlights', () => {
  it('lets the callers that miss a key while its leader runs wait for its answer', async () => {
    const flights = new AnswerFlights<string>();
    expect(flights.join('k', 1)).toBeUndefined(); // nobody flies: this caller leads
    const flight = flights.lead('k', 1);
    const joined = [flights.join('k', 1), flights.join('k', 1), flights.join('k', 1)];
    const waiters = joined.filter((w): w is Promise<string | undefined> => w !== undefined);
    expect(waiters).toHaveLength(3);
    flight.settle('answer');
    expect(await Promise.all(waiters)).toEqual(['answer', 'answer', 'answer']);
    expect(flights.size).toBe(0);
    expect(flights.join('k', 1)).toBeUndefined(); // landed: the next miss leads again
  });

  it("hands the leader's failure to its waiters as it is, and keeps nothing of it", async () => {
    const flights = new AnswerFlights<{ status: number }>();
    const flight = flights.lead('k', 1);
    const waiter = flights.join('k', 1);
    flight.settle({ status: 500 });
    expect(await waiter).toEqual({ status: 500 });
    expect(flights.join('k', 1)).toBeUndefined();
  });

  it('tells the waiters to compute their own when the leader has nothing to share', async () => {
    const flights = new AnswerFlights<string>();
    const flight = flights.lead('k', 1);
    const waiter = flights.join('k', 1);
    flight.settle(undefined);
    flight.settle('too late'); // a flight settles once
    expect(await waiter).toBeUndefined();
  });

  it('does not join a caller of a later generation (a write committed meanwhile) to an older flight', async () => {
    const flights = new AnswerFlights<string>();
    const before = flights.lead('k', 1);
    expect(flights.join('k', 2)).toBeUndefined(); // after the write: it leads its own
    const after = flights.lead('k', 2);
    const waiterAfter = flights.join('k', 2);
    before.settle('old'); // the older flight landing does not end the newer one
    expect(flights.join('k', 2)).toBe(waiterAfter);
    after.settle('new');
    expect(await waiterAfter).toBe('new');
    expect(flights.size).toBe(0);
  });

  it('keeps flights of different keys apart', async () => {
    const flights = new AnswerFlights<string>();
    const a = flights.lead('a', 1);
    const b = flights.lead('b', 1);
    const waitA = flights.join('a', 1);
    b.settle('B');
    a.settle('A');
    expect(await waitA).toBe('A');
  });
});
