import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { checkKey, contentTypeOf, type ObjectStore, type PutOptions } from './object-store';
import type { StorageTarget } from './storage-url';

type S3 = typeof import('@aws-sdk/client-s3');

// The SDK is loaded on first use: it is a third of a second of CPU at start, and most servers keep files on disk.
let sdk: Promise<S3> | undefined;
const loadSdk = () => (sdk ??= import('@aws-sdk/client-s3'));

const notFound = (s3: S3, err: unknown) => err instanceof s3.NoSuchKey || (err instanceof s3.S3ServiceException && err.$metadata.httpStatusCode === 404);

/** Objects in a bucket of S3-compatible storage (AWS S3, MinIO, R2, …), every key under the target's prefix. */
export class S3Store implements ObjectStore {
  private opened?: Promise<{ s3: S3; client: S3Client }>;

  constructor(private readonly target: StorageTarget) {}

  /** The SDK and this store's client, made on first use. */
  private open(): Promise<{ s3: S3; client: S3Client }> {
    return (this.opened ??= loadSdk().then((s3) => ({
      s3,
      client: new s3.S3Client({
        endpoint: this.target.endpoint,
        region: this.target.region,
        forcePathStyle: this.target.forcePathStyle,
        credentials: this.target.credentials,
        // Checksums only where S3 requires them: many S3-compatible stores do not take the newer trailing ones.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    })));
  }

  get description(): string {
    return `s3 ${this.target.endpoint}/${this.target.bucket}/${this.target.prefix}`;
  }

  private keyOf(key: string): string {
    return `${this.target.prefix}${checkKey(key)}`;
  }

  private meta(key: string, options: PutOptions) {
    return { Bucket: this.target.bucket, Key: this.keyOf(key), ContentType: options.contentType ?? contentTypeOf(key), CacheControl: options.cacheControl };
  }

  async put(key: string, body: Buffer | string, options: PutOptions = {}): Promise<void> {
    const { s3, client } = await this.open();
    await client.send(new s3.PutObjectCommand({ ...this.meta(key, options), Body: body }));
  }

  async putFile(key: string, path: string, options: PutOptions = {}): Promise<void> {
    const { s3, client } = await this.open();
    const { size } = await stat(path);
    await client.send(new s3.PutObjectCommand({ ...this.meta(key, options), Body: createReadStream(path), ContentLength: size }));
  }

  private async body(key: string): Promise<Readable | null> {
    const { s3, client } = await this.open();
    try {
      const res = await client.send(new s3.GetObjectCommand({ Bucket: this.target.bucket, Key: this.keyOf(key) }));
      return res.Body as Readable;
    } catch (err) {
      if (notFound(s3, err)) return null;
      throw err;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const body = await this.body(key);
    if (!body) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async getFile(key: string, path: string): Promise<boolean> {
    const body = await this.body(key);
    if (!body) return false;
    await pipeline(body, createWriteStream(path));
    return true;
  }

  async list(prefix: string): Promise<string[]> {
    const { s3, client } = await this.open();
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new s3.ListObjectsV2Command({ Bucket: this.target.bucket, Prefix: `${this.target.prefix}${prefix}`, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key.slice(this.target.prefix.length));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  async delete(key: string): Promise<void> {
    const { s3, client } = await this.open();
    await client.send(new s3.DeleteObjectCommand({ Bucket: this.target.bucket, Key: this.keyOf(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    const { s3, client } = await this.open();
    const keys = await this.list(prefix);
    // DeleteObjects takes at most 1,000 keys a call.
    for (let i = 0; i < keys.length; i += 1000) {
      const Objects = keys.slice(i, i + 1000).map((k) => ({ Key: this.keyOf(k) }));
      await client.send(new s3.DeleteObjectsCommand({ Bucket: this.target.bucket, Delete: { Objects, Quiet: true } }));
    }
  }
}
