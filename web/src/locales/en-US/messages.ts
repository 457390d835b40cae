// The en-US message catalogue: one JSON file per area, keys prefixed with the
// area's name ("auth.login.title" lives in auth.json). lib/i18n.ts reads it;
// a key the catalogue lacks is a type error and a failing test.
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

export const enUS = {
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
