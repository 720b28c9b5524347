import express from 'express';
import { contactController } from '../controllers/contact';
import { faqController } from '../controllers/faq';
import { rateLimit } from '../middleware/rate-limit';
import { validateContact } from '../validators/contact';
import { CONTACT_PATH } from './paths';

export const contactRouter = express.Router();

contactRouter.post(CONTACT_PATH, rateLimit, validateContact, contactController.sendContactEmailJp);

contactRouter.get('/faq/:slug', faqController.getFaq);
