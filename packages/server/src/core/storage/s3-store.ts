import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { checkKey, contentTypeOf, type ObjectStore, type PutOptions } from './object-store';
import type { StorageTarget } from './storage-url';

const notFound = (err: unknown) => err instanceof NoSuchKey || (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404);

/** Objects in a bucket of S3-compatible storage (AWS S3, MinIO, R2, …), every key under the target's prefix. */
export class S3Store implements ObjectStore {
  private readonly client: S3Client;

  constructor(private readonly target: StorageTarget) {
    this.client = new S3Client({
      endpoint: target.endpoint,
      region: target.region,
      forcePathStyle: target.forcePathStyle,
      credentials: target.credentials,
      // Checksums only where S3 requires them: many S3-compatible stores do not take the newer trailing ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
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
    await this.client.send(new PutObjectCommand({ ...this.meta(key, options), Body: body }));
  }

  async putFile(key: string, path: string, options: PutOptions = {}): Promise<void> {
    const { size } = await stat(path);
    await this.client.send(new PutObjectCommand({ ...this.meta(key, options), Body: createReadStream(path), ContentLength: size }));
  }

  private async body(key: string): Promise<Readable | null> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.target.bucket, Key: this.keyOf(key) }));
      return res.Body as Readable;
    } catch (err) {
      if (notFound(err)) return null;
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
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.target.bucket, Prefix: `${this.target.prefix}${prefix}`, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key.slice(this.target.prefix.length));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.target.bucket, Key: this.keyOf(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    const keys = await this.list(prefix);
    // DeleteObjects takes at most 1,000 keys a call.
    for (let i = 0; i < keys.length; i += 1000) {
      const Objects = keys.slice(i, i + 1000).map((k) => ({ Key: this.keyOf(k) }));
      await this.client.send(new DeleteObjectsCommand({ Bucket: this.target.bucket, Delete: { Objects, Quiet: true } }));
    }
  }
}
