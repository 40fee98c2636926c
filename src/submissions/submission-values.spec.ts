import { newEventValues } from '../manage';
import { descriptionHtml, linkCount, submissionInput, submissionProblems } from './submission-values';

const values = (changes: Record<string, unknown> = {}) => ({
  ...newEventValues('Europe/Paris', []),
  title: 'Jazz',
  start_date: '2031-07-14',
  start_time: '19:00',
  end_date: '2031-07-14',
  end_time: '22:00',
  ...changes,
});

describe('the description as typed (submission-values.ts)', () => {
  it.each([
    ['one line', 'Hello', '<p>Hello</p>'],
    ['a line break', 'Hello\nthere', '<p>Hello<br />\nthere</p>'],
    ['paragraphs, Windows line ends, blank lines with spaces', 'One\r\n \r\nTwo\n\n\nThree', '<p>One</p>\n<p>Two</p>\n<p>Three</p>'],
    ['markup is text', 'A <script>alert(1)</script> & <b>b</b>', '<p>A &lt;script>alert(1)&lt;/script> & &lt;b>b&lt;/b></p>'],
    [
      'an address is a link, without the full stop after it',
      'See https://example.org/a?b=1&c=2.',
      '<p>See <a href="https://example.org/a?b=1&amp;c=2" rel="nofollow ugc">https://example.org/a?b=1&amp;c=2</a>.</p>',
    ],
    [
      'a quote cannot leave the link',
      'http://x.example/"onmouseover="a',
      '<p><a href="http://x.example/" rel="nofollow ugc">http://x.example/</a>"onmouseover="a</p>',
    ],
    ['no scheme but http(s) becomes a link', 'javascript:alert(1) ftp://files.example', '<p>javascript:alert(1) ftp://files.example</p>'],
    ['nothing', ' \n \n', ''],
  ])('%s', (_what, typed, html) => {
    expect(descriptionHtml(typed)).toBe(html);
  });

  it('counts the links the limit counts', () => {
    expect(linkCount('none here, example.org')).toBe(0);
    expect(linkCount('http://a.example https://b.example/x HTTPS://C.EXAMPLE')).toBe(3);
  });
});

describe('the form’s own checks (submissionProblems)', () => {
  it('passes a complete form', () => {
    expect(submissionProblems(values(), { name: 'Ada', email: 'ada@example.org' })).toEqual([]);
    expect(submissionProblems(values(), null)).toEqual([]);
  });

  it('names each problem beside its field', () => {
    const problems = submissionProblems(
      values({
        title: ' ',
        end_date: '2031-07-13',
        description: 'https://a.example '.repeat(6),
        venue: 'new',
        new_venue: { venue: '' },
        organizers: ['new'],
        new_organizer: {},
      }),
      { name: '', email: 'ada@' },
    );
    expect(problems.map((p) => p.field)).toEqual(['title', 'end_date', 'description', 'new_venue-venue', 'new_organizer-organizer', 'your_name', 'your_email']);
  });
});

describe('the write input of a submission (submissionInput)', () => {
  it('is a pending event with its new venue and organizer pending, the text cleaned as an unprivileged caller’s', () => {
    const input = submissionInput(
      values({
        title: '<b>Jazz</b> & blues',
        all_day: true,
        venue: 'new',
        new_venue: { venue: 'Quay <i>Stage</i>', address: '', city: 'Lyon', country: 'France' },
        organizers: ['7', 'new'],
        new_organizer: { organizer: 'Club', email: 'club@example.org' },
        cost: '10',
        website: ' https://example.org ',
        ext: { seats: '50', other: 'x' },
      }),
      null,
      [7],
      [3, 4],
      [{ param: 'seats', label: 'Seats', kind: 'number', onSubmissionForm: true }],
    );
    expect(input).toEqual({
      title: 'Jazz & blues',
      status: 'pending',
      all_day: true,
      timezone: 'Europe/Paris',
      start_date: '2031-07-14 00:00:00',
      end_date: '2031-07-14 23:59:59',
      venue: { venue: 'Quay Stage', city: 'Lyon', country: 'France', status: 'pending' },
      organizer: [7, { organizer: 'Club', email: 'club@example.org', status: 'pending' }],
      categories: [3, 4],
      cost: '10',
      website: 'https://example.org',
      seats: '50',
    });
  });

  it('links a chosen venue by id and leaves out what was not given', () => {
    const input = submissionInput(values({ start_date: '', venue: '12' }), 12, [], [], []);
    expect(input).toEqual({ title: 'Jazz', status: 'pending', all_day: false, timezone: 'Europe/Paris', end_date: '2031-07-14 22:00:00', venue: 12 });
  });
});
