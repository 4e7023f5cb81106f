/**
 * Where a request's CPU time goes (bench/careers.ts --profile): a V8 CPU profile (`node
 * --cpu-prof`) summarised by part of the request, in microseconds per request. Each sample's time
 * goes to the innermost frame that belongs to a known part; samples in no part are "other". Idle
 * time (waiting for the network) is left out.
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Parts of a request, tried in order on each frame's script URL and function name. */
const PARTS: [string, RegExp][] = [
  ['request log (pino, request id)', /pino|sonic-boom|request-log|requestLog|randomUUID/],
  ['database (Knex, drivers, SQLite, MySQL)', /knex|better-sqlite3|mysql2|tarn|_query|\/src\/.*\/(repo|queries)|mapJob|fromDbDate/],
  ['templates (EJS)', /\.ejs|ejs\/lib|views\.ts|renderPageHtml|escapeXML/],
  ['page data (public view, salary, JSON-LD)', /toPublicJob|salaryDisplay|jobPostingJsonLd|safeJson|htmlToText|hasRichContent/],
  ['ETag, compression', /zlib|crypto\/hash|sent-page|sendSentPage|sentPage|Negotiator|negotiator|compression|on-headers/],
  ['security headers (helmet)', /helmet/],
  [
    'kept pages before Express (listener, version reads)',
    /kept-pages|keptPagesFirst|answerFromMemory|keptAnswerFor|VersionReads|public-version/,
  ],
  ['Express routing and middleware', /express|router|finalhandler|parseurl|fresh|unread-body|drainUnreadBodies|ops\/routes|track/],
  ['HTTP and sockets (Node)', /node:_http|node:net|node:internal\/stream|writev|node:internal\/streams|_http_/],
  ['garbage collection', /\(garbage collector\)/],
  ['V8 and native code (unattributed)', /\(program\)/],
];

/** The profile in `file` of a process that answered `requests` requests, as printable lines. */
export function summariseProfile(file: string, requests: number): string[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const partOf = new Map<number, string>();
  function part(id: number): string {
    const known = partOf.get(id);
    if (known) return known;
    const { functionName, url } = byId.get(id)!.callFrame;
    const label = `${url} ${functionName}`;
    let found = PARTS.find(([, re]) => re.test(label))?.[0];
    if (!found) found = parent.has(id) ? part(parent.get(id)!) : 'other';
    partOf.set(id, found);
    return found;
  }

  const micros = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const { functionName } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') return;
    const dt = profile.timeDeltas[i] ?? 0;
    busy += dt;
    const p = part(id);
    micros.set(p, (micros.get(p) ?? 0) + dt);
  });

  const lines = [`${(busy / requests).toFixed(1)} µs of CPU per request (${requests} requests)`];
  for (const [name, us] of [...micros.entries()].sort((a, b) => b[1] - a[1])) {
    lines.push(`${(us / requests).toFixed(1).padStart(8)} µs ${`${((100 * us) / busy).toFixed(1)} %`.padStart(7)}  ${name}`);
  }
  return lines;
}
