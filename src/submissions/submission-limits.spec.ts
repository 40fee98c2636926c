import { loadConfig } from '../config/app-config';
import { settingsOf } from '../common/feature/feature';
import { LimiterStore } from '../users';
import { SubmissionLimited, SubmissionLimits } from './submission-limits';
import { SUBMISSIONS_FEATURE } from './submissions.feature';

function limits(perAddress: number, perHour: number): SubmissionLimits {
  const config = loadConfig(
    { CALENDAR_SUBMISSIONS_PER_ADDRESS: String(perAddress), CALENDAR_SUBMISSIONS_PER_HOUR: String(perHour) },
    settingsOf(SUBMISSIONS_FEATURE),
  );
  return new SubmissionLimits(config, new LimiterStore(config));
}

const refusal = async (p: Promise<void>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof SubmissionLimited) return err.which;
    throw err;
  }
  return null;
};

describe('the hourly limits of submissions (SubmissionLimits)', () => {
  it('takes the per-address limit from one address, not from another', async () => {
    const l = limits(2, 100);
    expect(await refusal(l.take('a'))).toBeNull();
    expect(await refusal(l.take('a'))).toBeNull();
    expect(await refusal(l.take('a'))).toBe('address');
    expect(await refusal(l.take('b'))).toBeNull();
  });

  it('counts nothing for a refusal, and gives back a submission the write refused', async () => {
    const l = limits(1, 100);
    await l.take('a');
    for (let i = 0; i < 3; i++) expect(await refusal(l.take('a'))).toBe('address');
    await l.giveBack('a');
    expect(await refusal(l.take('a'))).toBeNull();
  });

  it('takes the overall limit from everyone; the address refused by it keeps its own count', async () => {
    const l = limits(1, 2);
    await l.take('a');
    await l.take('b');
    expect(await refusal(l.take('c'))).toBe('everyone');
    await l.giveBack('a');
    // c's refusal gave its address point back: c is taken once the overall count allows.
    expect(await refusal(l.take('c'))).toBeNull();
  });
});
