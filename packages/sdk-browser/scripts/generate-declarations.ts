// Prints the contract types the browser SDK's declarations use (the session, its grant, a playback resource,
// the public event, a booking and its answer, a ticket)
// into build/src/types.ts, so the published package needs no @svc/contract (nor zod) for its types.
// tsup builds the declarations from build/src/ and the code from src/.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typePrinter } from '@svc/release-check';

const root = fileURLToPath(new URL('..', import.meta.url));
const NAMES = {
  AccessSession: 'accessSession',
  PlaybackGrant: 'playbackGrant',
  PlaybackResource: 'playbackResource',
  PublicEvent: 'publicEvent',
  BookingPayload: 'bookingPayload',
  BookingRequest: 'bookingRequest',
  BookingResult: 'bookingResult',
  Ticket: 'ticket',
};
const { typeOf, print, declarations } = typePrinter(
  root,
  `import type { ${Object.keys(NAMES).join(', ')} } from '../src/types';\n` +
    Object.entries(NAMES).map(([type, name]) => `export declare const ${name}: ${type};\n`).join(''),
);
const printed = Object.entries(NAMES).map(([type, name]) => `export type ${type} = ${print(typeOf(name))};`);
const text = ['// Generated from the contract by scripts/generate-declarations.ts for the published declarations.', ...declarations, ...printed, ''].join('\n');
writeFileSync(join(root, 'build', 'src', 'types.ts'), text);
process.stdout.write(`build/src/types.ts: ${text.length} characters\n`);
