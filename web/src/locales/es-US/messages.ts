// The es-US message catalogue: the same areas and keys as en-US, whose files
// are its model. lib/i18n.ts loads it whole, and only for es-US; a key one
// catalogue has and the other lacks fails lib/__tests__/i18n.test.ts.
import type { enUS } from '@/locales/en-US/messages';
import account from './account.json';
import auth from './auth.json';
import common from './common.json';
import errors from './errors.json';
import forms from './forms.json';
import history from './history.json';
import layout from './layout.json';
import nav from './nav.json';
import legal from './legal.json';
import personal from './personal.json';
import privacy from './privacy.json';
import profile from './profile.json';
import services from './services.json';
import setup from './setup.json';
import welcome from './welcome.json';
import ui from './ui.json';
import upload from './upload.json';
import documents from './documents.json';
import home from './home.json';
import idv from './idv.json';
import payment from './payment.json';
import sites from './sites.json';
import chat from './chat.json';
import status from './status.json';
import reset from './reset.json';
import date from './date.json';
import adverse from './adverse.json';
import screening from './screening.json';
import disputes from './disputes.json';
import report from './report.json';
import handoff from './handoff.json';
import signin from './signin.json';
import reminders from './reminders.json';
import timeline from './timeline.json';
import drafts from './drafts.json';

export const esUS: Record<keyof typeof enUS, string> = {
  ...common,
  ...drafts,
  ...errors,
  ...forms,
  ...account,
  ...auth,
  ...history,
  ...layout,
  ...nav,
  ...legal,
  ...personal,
  ...privacy,
  ...profile,
  ...services,
  ...setup,
  ...welcome,
  ...ui,
  ...upload,
  ...documents,
  ...home,
  ...idv,
  ...payment,
  ...sites,
  ...chat,
  ...status,
  ...reset,
  ...date,
  ...adverse,
  ...screening,
  ...disputes,
  ...report,
  ...handoff,
  ...signin,
  ...reminders,
  ...timeline,
};
