import type { CliCommand } from '../common/feature/cli-command';
import { commandsOf, ownerOf } from './commands';
import { usageText } from './usage';

const command = (usage: string, description: string): CliCommand => ({ usage, description, migratesAtStart: true, prepare: () => async () => 0 });

describe('cli help', () => {
  it("lists the CLI's own commands and those the features declare, descriptions in one column", () => {
    const features = [{ name: 'tickets', commands: { 'tickets:report': command('tickets:report [--all]', 'every ticket\nand the total') } }];
    const text = usageText(commandsOf(features));
    expect(text).toMatch(/^Usage: npm run cli -- <command>\n\nCommands:\n/);
    expect(text).toContain(`  ${'tickets:report [--all]'.padEnd(48)}every ticket\n${' '.repeat(50)}and the total\n`);
    expect(text).toMatch(/^ {2}migration:run +apply pending migrations$/m);
    expect(ownerOf(features, 'tickets:report')?.name).toBe('tickets');
    expect(ownerOf(features, 'migration:run')).toBeUndefined();
  });

  it('puts a description under a usage too long to share its line', () => {
    const long = `long:one ${'--option VALUE '.repeat(4)}`.trim();
    const text = usageText({ 'long:one': command(long, 'does it') });
    expect(text).toContain(`  ${long}\n${' '.repeat(50)}does it`);
  });

  it('refuses a command declared twice', () => {
    const twice = [{ name: 'a', commands: { 'cache:flush': command('cache:flush', 'again') } }];
    expect(() => commandsOf(twice)).toThrow('cli: the command cache:flush is declared twice (feature a)');
  });
});
