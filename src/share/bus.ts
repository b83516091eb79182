// The shared run on NATS JetStream: streams, consumers and the object store (protocol.ts names them),
// for the learner and for contributors, over any NatsConnection (TCP under Node, WebSocket in a
// browser). The engine does the delivery work: a work item is leased to one contributor at a time (the
// work consumer's ack_wait; an item not acked in time goes to another), results wait in a file-backed
// stream behind a durable consumer (a learner restarted reads on where it stopped), weights are objects
// with SHA-256 digests checked on every read.
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, RetentionPolicy, StorageType, type Consumer, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { utf8Decode, utf8Encode } from '../model/dtypes.ts';
import { adaptersName, baseWeightsName, learnerConsumer, manifestName, talliesName, OBJECT_BUCKET, RESULTS_STREAM, resultsSubject, weightsName, WORK_STREAM, workConsumer, workSubject, type RunManifest, type WorkItem } from './protocol.ts';


/** A result as the learner receives it: who sent it (the subject's last token: the server enforces it). */
export interface IncomingResult {
  user: string;
  data: Uint8Array;
  ack(): void;
}

/** A work item as a contributor receives it: ack when its result is published, working() to extend the lease. */
export interface LeasedWork {
  data: Uint8Array;
  ack(): void;
  nak(): void;
  working(): void;
}

/** How long an operation is retried while the server is away (a restart, a dropped connection: the
 *  client reconnects on its own; JetStream's file store keeps every stream, consumer and object). */
export const OUTAGE_MS = 60_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(() => r(), ms));

/** `op`, again every second while it fails, until it succeeds or OUTAGE_MS have passed; permission
 *  errors and a store that does not exist (a run whose learner has not started) are answers, not
 *  outages, and fail at once. */
export async function retrying<R>(op: () => Promise<R>, outageMs = OUTAGE_MS): Promise<R> {
  const t0 = performance.now();
  for (;;) {
    try {
      return await op();
    } catch (e) {
      if (/permission|object store not found/i.test(String((e as Error).message)) || performance.now() - t0 > outageMs) throw e;
      await sleep(1000);
    }
  }
}

export class RunBus {
  readonly js: JetStreamClient;
  private store?: ObjectStore;

  constructor(
    readonly nc: NatsConnection,
    readonly run: string,
  ) {
    this.js = jetstream(nc);
  }

  private async objects(): Promise<ObjectStore> {
    return (this.store ??= await new Objm(this.js).open(OBJECT_BUCKET));
  }

  /** An object-store write or read of this run, through a server outage (null: no such object). */
  private put(name: string, bytes: Uint8Array): Promise<unknown> {
    return retrying(async () => (await this.objects()).putBlob({ name }, bytes));
  }
  private get(name: string): Promise<Uint8Array | null> {
    return retrying(async () => (await this.objects()).getBlob(name));
  }

  // ── learner side ──

  /** Streams, consumers and the object store of the run (idempotent: a restarted learner finds them, and
   *  one restarted while the server restarts retries the whole set-up). */
  setUp(opts: { leaseSeconds: number; maxDeliver: number }): Promise<void> {
    return retrying(() => this.createRun(opts));
  }

  private async createRun(opts: { leaseSeconds: number; maxDeliver: number }): Promise<void> {
    const jsm = await jetstreamManager(this.nc);
    const ensure = async (name: string, cfg: Parameters<typeof jsm.streams.add>[0]) => {
      try {
        await jsm.streams.info(name);
      } catch {
        await jsm.streams.add(cfg);
      }
    };
    await ensure(WORK_STREAM, { name: WORK_STREAM, subjects: ['webswe.work.>'], retention: RetentionPolicy.Workqueue, storage: StorageType.File });
    await ensure(RESULTS_STREAM, { name: RESULTS_STREAM, subjects: ['webswe.results.>'], storage: StorageType.File });
    const consumer = async (stream: string, name: string, filter: string, extra: object) => {
      try {
        await jsm.consumers.info(stream, name);
      } catch {
        await jsm.consumers.add(stream, { durable_name: name, filter_subject: filter, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, ...extra });
      }
    };
    await consumer(WORK_STREAM, workConsumer(this.run), workSubject(this.run), { ack_wait: opts.leaseSeconds * 1e9, max_deliver: opts.maxDeliver });
    await consumer(RESULTS_STREAM, learnerConsumer(this.run), resultsSubject(this.run, '*'), { ack_wait: 600e9 });
    this.store = await new Objm(this.js).create(OBJECT_BUCKET, { storage: StorageType.File });
  }

  async putManifest(m: RunManifest): Promise<void> {
    await this.put(manifestName(this.run), utf8Encode(JSON.stringify(m)));
  }

  async putWeights(version: number, bytes: Uint8Array): Promise<void> {
    await this.put(weightsName(this.run, version), bytes);
  }

  /** A LoRA run's base weights (once) and a version's adapters. */
  async putBaseWeights(bytes: Uint8Array): Promise<void> {
    await this.put(baseWeightsName(this.run), bytes);
  }

  async putAdapters(version: number, bytes: Uint8Array): Promise<void> {
    await this.put(adaptersName(this.run, version), bytes);
  }

  async putTallies(t: Record<string, unknown>): Promise<void> {
    await this.put(talliesName(this.run), utf8Encode(JSON.stringify(t)));
  }

  async publishWork(item: WorkItem): Promise<void> {
    await retrying(() => this.js.publish(workSubject(this.run), utf8Encode(JSON.stringify(item))));
  }

  /** The results consumer (durable): next() waits up to `expires` ms; null when nothing came. */
  async results(): Promise<{ next(expires: number): Promise<IncomingResult | null> }> {
    let c: Consumer = await retrying(() => this.js.consumers.get(RESULTS_STREAM, learnerConsumer(this.run)));
    const js = this.js, run = this.run;
    return {
      async next(expires: number) {
        const m = await retrying(async () => {
          try {
            return await c.next({ expires: Math.max(1000, Math.round(expires)) });
          } catch (e) {
            c = await js.consumers.get(RESULTS_STREAM, learnerConsumer(run)); // after a server restart
            throw e;
          }
        });
        if (!m) return null;
        return { user: m.subject.split('.').pop()!, data: m.data, ack: () => m.ack() };
      },
    };
  }

  // ── contributor side ──

  async getManifest(): Promise<RunManifest> {
    const bytes = await this.get(manifestName(this.run));
    if (!bytes) throw new Error(`run ${this.run} has no manifest on this server: is the run id right, and has its learner started?`);
    return JSON.parse(utf8Decode(bytes)) as RunManifest;
  }

  /** The learner's per-contributor counts, or null before its first round. */
  async getTallies(): Promise<Record<string, { accepted: number; rejected: Record<string, number> }> | null> {
    const bytes = await this.get(talliesName(this.run));
    return bytes ? (JSON.parse(utf8Decode(bytes)) as Record<string, { accepted: number; rejected: Record<string, number> }>) : null;
  }

  async getWeights(version: number): Promise<Uint8Array> {
    const bytes = await this.get(weightsName(this.run, version));
    if (!bytes) throw new Error(`run ${this.run} has no weights for policy version ${version}`);
    return bytes;
  }

  async getBaseWeights(): Promise<Uint8Array> {
    const bytes = await this.get(baseWeightsName(this.run));
    if (!bytes) throw new Error(`run ${this.run} has no base weights on this server (a LoRA run publishes them before its first round)`);
    return bytes;
  }

  async getAdapters(version: number): Promise<Uint8Array> {
    const bytes = await this.get(adaptersName(this.run, version));
    if (!bytes) throw new Error(`run ${this.run} has no adapters for policy version ${version}`);
    return bytes;
  }

  /** The next work item of the run (leased to this contributor), or null after `expires` ms without one. */
  async nextWork(expires: number): Promise<LeasedWork | null> {
    const m: JsMsg | null = await retrying(async () => (await this.js.consumers.get(WORK_STREAM, workConsumer(this.run))).next({ expires: Math.max(1000, Math.round(expires)) }));
    if (!m) return null;
    return { data: m.data, ack: () => m.ack(), nak: () => m.nak(), working: () => m.working() };
  }

  async publishResult(user: string, bytes: Uint8Array): Promise<void> {
    await retrying(() => this.js.publish(resultsSubject(this.run, user), bytes));
  }
}
