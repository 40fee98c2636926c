// Playwright disposes of some handles with `using` (a click in a frame finds the frame's
// element that way). Node 20 gives its own realm Symbol.dispose and Symbol.asyncDispose, but
// not the realm Jest runs a test file in, where playwright-core is loaded: there such a click
// fails with "Object not disposable". Imported before playwright-core, this gives that realm the
// registered symbols playwright-core's bundle falls back to when they are missing, so that its
// classes and its `using` agree.
const symbols = Symbol as unknown as Record<'dispose' | 'asyncDispose', symbol | undefined>;
symbols.dispose ??= Symbol.for('Symbol.dispose');
symbols.asyncDispose ??= Symbol.for('Symbol.asyncDispose');

export {};
