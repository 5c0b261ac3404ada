import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../../../core/context';
import { ApiError } from '../../../core/errors';
import { mediaDeps } from '../assets/media-deps';
import { originAllowed, receiveUpload, uploadForToken } from './uploads.service';

/** Where the simulated network's one-time upload URLs point (`?token=` carries the secret, kept out of logs). */
export const UPLOAD_FILE_PATH = '/v1/streams/uploads/:id/file';

const token = (req: Request) => (typeof req.query.token === 'string' ? req.query.token : undefined);

/** Reads the body while counting, and stops at `maxBytes`: the file itself is not kept by the simulated network. */
function drain(req: Request, maxBytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) {
        req.removeAllListeners('data');
        req.resume();
        reject(ApiError.of('body_too_large', { message: `The file is larger than this upload takes (${maxBytes} bytes).` }));
      }
    });
    req.on('end', () => resolve(received));
    req.on('error', reject);
  });
}

/**
 * The receiving end of test-mode direct uploads, outside the JSON contract: it takes the raw file. The URL's
 * token is the credential; CORS answers only the upload's `cors_origin`; exactly one `PUT` is taken.
 * Mounted before the JSON body parser so a file is never parsed.
 */
export function mountUploadReceiver(app: Express, ctx: AppContext, before: RequestHandler[] = []): void {
  const deps = mediaDeps(ctx);

  const cors = (req: Request, res: Response, cors: string | null) => {
    const origin = req.get('Origin');
    if (origin === undefined) return;
    if (!cors || !originAllowed({ cors_origin: cors }, origin)) {
      throw ApiError.of('upload_origin_not_allowed', { message: `The origin ${origin} may not send this upload.` });
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
  };

  app.options(UPLOAD_FILE_PATH, ...before, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const row = await uploadForToken(deps, String(req.params.id), token(req));
      cors(req, res, row.cors_origin);
      res.setHeader('Access-Control-Allow-Methods', 'PUT');
      res.setHeader('Access-Control-Allow-Headers', req.get('Access-Control-Request-Headers') ?? 'Content-Type');
      res.setHeader('Access-Control-Max-Age', '600');
      res.status(204).end();
    } catch (err) {
      next(err);
    }
  });

  app.put(UPLOAD_FILE_PATH, ...before, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const row = await uploadForToken(deps, String(req.params.id), token(req));
      cors(req, res, row.cors_origin);
      if (row.status !== 'waiting') throw ApiError.of('upload_url_used');
      const maxBytes = Number(row.max_bytes);
      const declared = Number(req.get('Content-Length') ?? NaN);
      if (declared > maxBytes) {
        res.setHeader('Connection', 'close');
        throw ApiError.of('body_too_large', { message: `The file is larger than this upload takes (${maxBytes} bytes).` });
      }
      const network = deps.networks.byProvider(row.provider);
      const received = network.receiveUploadFile ? await network.receiveUploadFile(row.provider_upload_id!, req, maxBytes) : await drain(req, maxBytes);
      if (received === 0) throw ApiError.of('invalid_request', { message: 'The request carried no file.', param: 'body' });
      const upload = await receiveUpload(deps, row, received, req);
      res.status(200).json({ data: { id: upload.id, status: upload.status, asset: upload.asset, received_bytes: received } });
    } catch (err) {
      next(err);
    }
  });
}
