/**
 * The offers API (issue 34), under /api/hr (app.ts guards it; the access gate lets admins,
 * recruiters and the job's hiring manager through, never interviewers):
 * - `/api/hr/applications/{id}/offers/`: GET the application's offers, POST a new draft;
 * - `/api/hr/offers/{id}/`: GET, PATCH (terms or letter; a submitted offer's approval restarts);
 * - `/api/hr/offers/{id}/submit/`, `approve/`, `reject/` (`{comment}`), `send/`, `withdraw/` (`{reason}`);
 * - `/api/hr/offers/{id}/pdf/`: the PDF (signed once accepted), as an attachment;
 * - `/api/hr/offer-templates/` (GET; POST admins) and `{id}/` (GET; PUT, DELETE admins);
 * - `/api/hr/offer-approval-chains/` (GET every chain), `default/` (GET; PUT admins) and
 *   `/api/hr/jobs/{id}/offer-approval-chain/` (GET the job's chain, its own or the default; PUT,
 *   DELETE admins: DELETE puts the job back on the default chain).
 */
import { Router, type Request } from 'express';
import type { AppContext } from '../context.js';
import { sendDownload } from '../http/download.js';
import { pathId, validate } from '../http/validate.js';
import { requireAdmin } from '../users/index.js';
import {
  OFFER_ERROR_ORDER as ORDER,
  OFFER_MESSAGES as M,
  chainSchema,
  decisionSchema,
  offerSchema,
  reasonSchema,
  templateSchema,
} from './schema.js';
import {
  LETTER_VARIABLES,
  assertSeesOffers,
  changeOffer,
  createOffer,
  decideOffer,
  getOffer,
  listOffers,
  offerPdf,
  sendOffer,
  submitOffer,
  withdrawOffer,
  type Viewer,
} from './service.js';
import {
  approvalChain,
  approvalChains,
  createOfferTemplate,
  offerTemplate,
  offerTemplates,
  putApprovalChain,
  removeApprovalChain,
  removeOfferTemplate,
  replaceOfferTemplate,
} from './settings.service.js';

const viewer = (req: Request): Viewer => ({ userId: req.hr!.userId, role: req.hr!.role });

export function offersApi(ctx: AppContext): Router {
  const router = Router();
  const { db } = ctx;
  // Every offer route: the id, and whether the asker sees this job's offers (assertSeesOffers).
  const offerId = async (req: Request) => {
    const id = pathId(req.params.id, M.notFound);
    await assertSeesOffers(db, viewer(req), { offerId: id });
    return id;
  };
  const appId = async (req: Request) => {
    const id = pathId(req.params.id, M.applicationNotFound);
    await assertSeesOffers(db, viewer(req), { applicationId: id });
    return id;
  };
  const templateId = (raw: unknown) => pathId(raw, M.templateNotFound);

  router.get('/api/hr/applications/:id/offers/', async (req, res) => {
    res.json(await listOffers(ctx, await appId(req), viewer(req)));
  });
  router.post('/api/hr/applications/:id/offers/', async (req, res) => {
    const id = await appId(req);
    res.status(201).json(await createOffer(ctx, id, validate(offerSchema(false), req.body, ORDER), viewer(req)));
  });
  router.get('/api/hr/offers/:id/', async (req, res) => {
    res.json(await getOffer(ctx, await offerId(req), viewer(req)));
  });
  router.patch('/api/hr/offers/:id/', async (req, res) => {
    const id = await offerId(req);
    res.json(await changeOffer(ctx, id, validate(offerSchema(true), req.body, ORDER), viewer(req)));
  });
  router.post('/api/hr/offers/:id/submit/', async (req, res) => {
    res.json(await submitOffer(ctx, await offerId(req), viewer(req)));
  });
  for (const [path, approve] of [
    ['/api/hr/offers/:id/approve/', true],
    ['/api/hr/offers/:id/reject/', false],
  ] as const) {
    router.post(path, async (req, res) => {
      const id = await offerId(req);
      const { comment } = validate(decisionSchema(!approve), req.body, ORDER);
      res.json(await decideOffer(ctx, id, approve, comment, viewer(req)));
    });
  }
  router.post('/api/hr/offers/:id/send/', async (req, res) => {
    res.json(await sendOffer(ctx, await offerId(req), viewer(req)));
  });
  router.post('/api/hr/offers/:id/withdraw/', async (req, res) => {
    const id = await offerId(req);
    const { reason } = validate(reasonSchema(), req.body, ORDER);
    res.json(await withdrawOffer(ctx, id, reason, viewer(req)));
  });
  router.get('/api/hr/offers/:id/pdf/', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    await sendDownload(res, await offerPdf(ctx, await offerId(req)));
  });

  // Templates
  router.get('/api/hr/offer-templates/', async (_req, res) => {
    res.json({ results: await offerTemplates(db), variables: LETTER_VARIABLES });
  });
  router.post('/api/hr/offer-templates/', requireAdmin, async (req, res) => {
    res.status(201).json(await createOfferTemplate(db, validate(templateSchema(LETTER_VARIABLES), req.body, ORDER), ctx.now()));
  });
  router.get('/api/hr/offer-templates/:id/', async (req, res) => {
    res.json(await offerTemplate(db, templateId(req.params.id)));
  });
  router.put('/api/hr/offer-templates/:id/', requireAdmin, async (req, res) => {
    const id = templateId(req.params.id);
    res.json(await replaceOfferTemplate(db, id, validate(templateSchema(LETTER_VARIABLES), req.body, ORDER), ctx.now()));
  });
  router.delete('/api/hr/offer-templates/:id/', requireAdmin, async (req, res) => {
    await removeOfferTemplate(db, templateId(req.params.id));
    res.status(204).end();
  });

  // Approval chains
  router.get('/api/hr/offer-approval-chains/', async (_req, res) => {
    res.json(await approvalChains(db));
  });
  router.get('/api/hr/offer-approval-chains/default/', async (_req, res) => {
    res.json(await approvalChain(db, null));
  });
  router.put('/api/hr/offer-approval-chains/default/', requireAdmin, async (req, res) => {
    res.json(await putApprovalChain(db, null, validate(chainSchema(), req.body, ORDER), ctx.now()));
  });
  router.get('/api/hr/jobs/:id/offer-approval-chain/', async (req, res) => {
    res.json(await approvalChain(db, pathId(req.params.id, M.jobNotFound)));
  });
  router.put('/api/hr/jobs/:id/offer-approval-chain/', requireAdmin, async (req, res) => {
    const id = pathId(req.params.id, M.jobNotFound);
    res.json(await putApprovalChain(db, id, validate(chainSchema(), req.body, ORDER), ctx.now()));
  });
  router.delete('/api/hr/jobs/:id/offer-approval-chain/', requireAdmin, async (req, res) => {
    await removeApprovalChain(db, pathId(req.params.id, M.jobNotFound));
    res.status(204).end();
  });

  return router;
}
