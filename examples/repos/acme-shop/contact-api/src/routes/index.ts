import express from 'express';
import { contactRouter } from './contact';
import { HEALTH_PATH } from './paths';

export const apiRouter = express.Router();

apiRouter.get(HEALTH_PATH, (_req, res) => {
  res.json({ status: 'ok' });
});

apiRouter.use('/jp', contactRouter);
