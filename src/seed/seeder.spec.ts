import { Progress } from './progress';
import { SlugRegistry } from './seeder';

describe('SlugRegistry', () => {
  it('hands out base, base-2, base-3… around the slugs already taken', () => {
    const slugs = new SlugRegistry(['jazz-night', 'jazz-night-3']);
    expect(slugs.take('jazz-night', '1')).toBe('jazz-night-2');
    expect(slugs.take('jazz-night', '2')).toBe('jazz-night-4');
    expect(slugs.take('poetry', '3')).toBe('poetry');
    expect(slugs.take('poetry', '4')).toBe('poetry-2');
    expect(slugs.take('', '77')).toBe('77');
  });
});

describe('Progress', () => {
  const stream = (isTTY: boolean) => {
    const lines: string[] = [];
    return { isTTY, lines, write: (s: string) => lines.push(s) };
  };

  it('writes a line every 10% when the stream is not a terminal', () => {
    const out = stream(false);
    const p = new Progress('events', 1000, out);
    for (let done = 0; done <= 1000; done += 50) p.update(done);
    p.finish();
    expect(out.lines).toHaveLength(10);
    expect(out.lines[0]).toMatch(/^events:  10% \(100\/1,000\) \d+\.\d s\n$/);
    expect(out.lines[9]).toMatch(/^events: 100% \(1,000\/1,000\)/);
  });

  it('redraws one line with \\r on a terminal and ends it', () => {
    const out = stream(true);
    const p = new Progress('events', 10, out);
    p.update(10);
    p.finish();
    expect(out.lines[0]).toMatch(/^\revents \[#{30}\] 100% 10\/10 /);
    expect(out.lines[out.lines.length - 1]).toBe('\n');
  });
});
