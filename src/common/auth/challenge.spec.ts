import { basicChallenge } from './challenge';

describe('basicChallenge (WWW-Authenticate of a 401)', () => {
  it.each([
    ['Events', 'Basic realm="Events", charset="UTF-8"'],
    ['Riverside "Events"', 'Basic realm="Riverside \\"Events\\"", charset="UTF-8"'],
    ['Back\\slash', 'Basic realm="Back\\\\slash", charset="UTF-8"'],
    ['Événements à Genève', 'Basic realm="Evenements a Geneve", charset="UTF-8"'],
    ['イベント', 'Basic realm="Events", charset="UTF-8"'],
    ['Line\r\nInjected: yes', 'Basic realm="LineInjected: yes", charset="UTF-8"'],
  ])('%s', (title, header) => {
    expect(basicChallenge(title)).toBe(header);
  });
});
