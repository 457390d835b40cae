// The disputes area of the message catalogue, loaded with the dispute pages and the home card rather
// than with /login (lib/i18n.ts). Every module that names its keys imports this first.
import { addMessages } from '@/lib/i18n';
import messages from '@/locales/en-US/disputes.json';

addMessages('disputes', messages);
