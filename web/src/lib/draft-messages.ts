// The drafts area of the message catalogue, loaded with the forms that keep
// server drafts rather than with /login (lib/i18n.ts). Every module that names
// its keys imports this first.
import { addMessages } from '@/lib/i18n';
import messages from '@/locales/en-US/drafts.json';

addMessages('drafts', messages);
