import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { varyWith } from './representation';

// Routes that answer JSON or iCalendar (ical.md, Export): by their `.ics` path, or by the
// Accept header on the JSON path. Errors stay JSON either way (errors.md).

export const ICAL_TYPE = 'text/calendar; charset=utf-8';

/** How much an Accept header wants a type: its q, and how specific the range that gave it was (2 exact, 1 `type/*`, 0 `*\/*`). */
interface Preference {
  q: number;
  specificity: number;
}

function preferenceFor(accept: string, type: string): Preference {
  const [major] = type.split('/');
  let best: Preference = { q: 0, specificity: -1 };
  for (const part of accept.split(',')) {
    const [range, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity <= best.specificity) continue;
    const qParam = params.find((p) => /^q\s*=/.test(p));
    const q = qParam === undefined ? 1 : Number(qParam.replace(/^q\s*=\s*/, ''));
    best = { q: Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0, specificity };
  }
  return best;
}

/**
 * Does the client prefer iCalendar to JSON? Only when it asks for text/calendar more than for
 * JSON: a higher q, or the same q from a more specific range (`text/calendar, *\/*`). `*\/*`
 * alone, no Accept, or a tie between the two named types keep the JSON answer.
 */
export function prefersIcal(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return false;
  const calendar = preferenceFor(accept, 'text/calendar');
  const json = preferenceFor(accept, 'application/json');
  if (calendar.q === 0) return false;
  return calendar.q > json.q || (calendar.q === json.q && calendar.specificity > json.specificity);
}

/** Adds `field` to the reply's Vary header, keeping what is there (CORS may have put `Origin`). */
export function addVary(reply: FastifyReply, field: string): void {
  void reply.header('vary', varyWith(reply.getHeader('vary'), field));
}

/** An iCalendar document and the file name it is offered under. */
export interface IcalFile {
  body: string;
  filename: string;
}

/**
 * A route's way to answer iCalendar: `wanted` says whether to, `send` sets the headers and
 * gives the body to return. (An interface, not a class: the global validation pipe leaves
 * parameters of such types alone.)
 */
export interface IcalReply {
  readonly wanted: boolean;
  send(file: IcalFile): string;
}

function icalReply(wanted: boolean, reply: FastifyReply): IcalReply {
  return {
    wanted,
    send(file) {
      void reply.header('content-type', ICAL_TYPE).header('content-disposition', `inline; filename="${file.filename}"`);
      return file.body;
    },
  };
}

/**
 * The route's IcalReply. `negotiate`: a JSON route that answers iCalendar when the Accept
 * header prefers it; every answer then says `Vary: Accept`. `always`: an `.ics` route.
 */
export const Ical = createParamDecorator((mode: 'negotiate' | 'always', ctx: ExecutionContext): IcalReply => {
  const http = ctx.switchToHttp();
  const reply = http.getResponse<FastifyReply>();
  if (mode === 'always') return icalReply(true, reply);
  addVary(reply, 'Accept');
  return icalReply(prefersIcal(http.getRequest<FastifyRequest>().headers.accept), reply);
});
