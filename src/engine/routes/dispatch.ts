/**
 * The engine's request listener: finds the route, checks the key, runs the
 * handler. Every route requires the API key unless added with
 * `{ public: true }`; a thrown `HttpError` becomes `{error}` with its status
 * (under /v1 the gateway's `{error: {message, type, code}}`, routes/errors.ts).
 * It never throws: a request target that is not a URL is a 400, anything
 * unexpected is logged and answered 500.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AUTH_ERROR } from '../auth';
import type { EngineContext } from '../context';
import { errorBody } from './errors';
import { sendJson } from './respond';
import { HttpError, requestUrl, type Router } from './router';

export function requestListener(router: Router, ctx: Pick<EngineContext, 'isAuthorized' | 'logger'>): (req: IncomingMessage, res: ServerResponse) => void {
  const { logger } = ctx;
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const url = requestUrl(req.url);
    const method = req.method ?? 'GET';
    if (!url) {
      req.resume();
      sendJson(res, 400, { error: 'The request target is not a valid URL path.' });
      return;
    }
    const found = router.match(method, url.pathname);
    if (!found?.route.public && !ctx.isAuthorized(req)) {
      req.resume();
      sendJson(res, 401, errorBody(url.pathname, 401, AUTH_ERROR));
      return;
    }
    if (found === undefined) {
      req.resume();
      sendJson(res, 404, errorBody(url.pathname, 404, 'Not found'));
      return;
    }
    if (found === null) {
      req.resume();
      sendJson(res, 405, errorBody(url.pathname, 405, `Method ${method} is not allowed on ${url.pathname}`));
      return;
    }
    Promise.resolve()
      .then(() => found.route.handler({ req, res, url, params: found.params }))
      .catch((err: unknown) => {
        if (err instanceof HttpError) {
          sendJson(res, err.status, errorBody(url.pathname, err.status, err.message, (err as { code?: string }).code), err.headers);
        } else {
          logger.error(`${method} ${url.pathname}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
          sendJson(res, 500, errorBody(url.pathname, 500, 'Internal server error in the local engine; the request may be sent again.'));
        }
        if (!req.complete) req.resume();
      })
      .catch(() => res.destroy());
  };
  return (req, res) => {
    try {
      onRequest(req, res);
    } catch (err) {
      logger.error(`request listener: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      if (!res.headersSent) sendJson(res, 500, { error: 'Internal server error in the local engine; the request may be sent again.' });
      else res.destroy();
    }
  };
}
