import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { get, set } from 'idb-keyval';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { tsr } from '../api/client';
import type { ScanResult, TicketedEvent } from '../api/types';
import { useEnvironment } from '../shell';
import { ErrorNote, Field, Loading } from '../ui/ui';
import { DoorQueue, refusalText, secretOfCode, type QueuedScan } from './door-queue';
import { startScanner, type Scanner } from './scanner';

const queue = new DoorQueue({ get: (k) => get(k), set: (k, v) => set(k, v) });

type Outcome = { tone: 'ok' | 'bad' | 'queued'; title: string; detail: string };

function useOnline() {
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    addEventListener('online', on);
    addEventListener('offline', off);
    return () => {
      removeEventListener('online', on);
      removeEventListener('offline', off);
    };
  }, []);
  return online;
}

function outcomeOf(result: ScanResult, type: 'entry' | 'exit'): Outcome {
  const who = result.attendee ? [result.attendee.first_name, result.attendee.last_name].filter(Boolean).join(' ') : '';
  const ticket = result.ticket?.ticket_type.name ?? '';
  if (result.status === 'ok') return { tone: 'ok', title: type === 'entry' ? 'Welcome in' : 'Exit recorded', detail: [who, ticket].filter(Boolean).join(' · ') };
  return { tone: 'bad', title: 'Refused', detail: refusalText(result.reason) };
}

/** The door: pick the event, scan or type a ticket's code, see entry, exit or the reason for a refusal; offline too. */
export function DoorPage() {
  const { event } = useSearch({ strict: false }) as { event?: string };
  const navigate = useNavigate();
  const environment = useEnvironment();
  const online = useOnline();
  const [type, setType] = useState<'entry' | 'exit'>('entry');
  const [code, setCode] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [waiting, setWaiting] = useState(0);
  const [camera, setCamera] = useState<unknown>(null);
  const [scanning, setScanning] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const scanner = useRef<Scanner | null>(null);
  const events = tsr.organizerEvents.list.useQuery({ queryKey: ['events', environment, 'published'], queryData: { query: { limit: 100, status: 'published' } } });
  const scan = tsr.checkins.scan.useMutation();
  const sync = tsr.checkins.sync.useMutation();
  const list = (events.data?.body as { data: TicketedEvent[] } | undefined)?.data ?? [];

  useEffect(() => void queue.all().then((q) => setWaiting(q.length)), []);

  const syncNow = useCallback(async () => {
    const results = await queue.sync(async (ev, scans) => {
      const res = await sync.mutateAsync({ params: { event: ev }, body: { scans: scans.map(({ secret, type: t, nonce, scanned_at }) => ({ secret, type: t, nonce, scanned_at })) } });
      return (res.body as { data: ScanResult[] }).data;
    });
    setWaiting((await queue.all()).length);
    if (results.length > 0) {
      const refused = results.filter((r) => r.status === 'error');
      const detail = refused.length ? `${refused.length} refused: ${[...new Set(refused.map((r) => refusalText(r.reason)))].join(' ')}` : 'All accepted.';
      setOutcome({ tone: refused.length ? 'bad' : 'ok', title: `Synced ${results.length} offline scan${results.length > 1 ? 's' : ''}`, detail });
    }
  }, [sync]);

  // Back online: the waiting scans go out by themselves.
  useEffect(() => {
    if (online && waiting > 0) void syncNow().catch(() => undefined);
  }, [online, waiting, syncNow]);

  const check = useCallback(
    async (text: string) => {
      if (!event) return;
      const item: QueuedScan = { nonce: crypto.randomUUID(), event, secret: secretOfCode(text), type, scanned_at: new Date().toISOString() };
      const keep = async () => {
        setWaiting(await queue.add(item));
        setOutcome({ tone: 'queued', title: 'Saved offline', detail: 'Checked against the list when the phone is back online.' });
      };
      if (!navigator.onLine) return keep();
      try {
        const res = await scan.mutateAsync({ params: { event }, body: { secret: item.secret, type, nonce: item.nonce } });
        setOutcome(outcomeOf((res.body as { data: ScanResult }).data, type));
      } catch (err) {
        // No answer at all (the network dropped): keep it; an answer with an error is shown.
        if (err instanceof TypeError) return keep();
        throw err;
      }
    },
    [event, type, scan],
  );

  const toggleCamera = async () => {
    if (scanner.current) {
      scanner.current.stop();
      scanner.current = null;
      setScanning(false);
      return;
    }
    setCamera(null);
    try {
      scanner.current = await startScanner(video.current!, (text) => void check(text).catch(() => undefined));
      setScanning(true);
    } catch (err) {
      setCamera(err);
    }
  };
  useEffect(() => () => scanner.current?.stop(), []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return;
    void check(code).catch(() => undefined);
    setCode('');
  };

  return (
    <main className="door" id="main">
      <header>
        <h1>At the door</h1>
        <p className={`net ${online ? 'online' : 'offline'}`} role="status">
          {online ? 'Online' : 'Offline: scans are saved on this phone'}
          {waiting > 0 && ` · ${waiting} waiting to sync`}
        </p>
        <Link to="/">Console</Link>
      </header>
      {!event ? (
        events.isPending ? (
          <Loading what="Loading events" />
        ) : list.length === 0 ? (
          <p>No published events. Publish one in the console first.</p>
        ) : (
          <ul className="event-picker">
            {list.map((e) => (
              <li key={e.id}>
                <button type="button" onClick={() => void navigate({ to: '/door', search: { event: e.id } })}>
                  {e.name}
                </button>
              </li>
            ))}
          </ul>
        )
      ) : (
        <>
          <p className="door-event">{list.find((e) => e.id === event)?.name ?? 'Event'} · <Link to="/door" search={{}}>Change</Link></p>
          <div className="mode" role="radiogroup" aria-label="Scan type">
            {(['entry', 'exit'] as const).map((t) => (
              <button key={t} type="button" role="radio" aria-checked={type === t} onClick={() => setType(t)}>
                {t === 'entry' ? 'Entry' : 'Exit'}
              </button>
            ))}
          </div>
          <div className={`outcome ${outcome?.tone ?? 'idle'}`} role="status" aria-live="assertive" data-testid="outcome">
            <strong>{outcome?.title ?? 'Ready to scan'}</strong>
            <span>{outcome?.detail ?? 'Point the camera at a ticket, or type its code.'}</span>
          </div>
          <video ref={video} className={scanning ? 'camera on' : 'camera'} muted playsInline aria-label="Camera view" />
          <button type="button" onClick={() => void toggleCamera()}>
            {scanning ? 'Stop camera' : 'Scan with camera'}
          </button>
          <ErrorNote error={camera} />
          <form onSubmit={submit} className="manual">
            <Field label="Ticket code">
              <input name="code" value={code} onChange={(e) => setCode(e.target.value)} autoComplete="off" autoCapitalize="off" />
            </Field>
            <button type="submit" disabled={scan.isPending}>
              Check
            </button>
          </form>
          <ErrorNote error={scan.error ?? sync.error} />
          {waiting > 0 && online && (
            <button type="button" className="secondary" onClick={() => void syncNow().catch(() => undefined)} disabled={sync.isPending}>
              Sync {waiting} now
            </button>
          )}
        </>
      )}
    </main>
  );
}
