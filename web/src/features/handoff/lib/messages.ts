// The handoff area of the message catalogue ("Continue on your phone" and /continue), loaded with the
// logged-in chrome and the /continue page rather than with /login (lib/i18n.ts). Every module that
// names its keys imports this first.
import { addMessages } from '@/lib/i18n';
import messages from '@/locales/en-US/handoff.json';

addMessages('handoff', messages);
