// The setup area of the message catalogue, loaded with this feature rather than
// with /login (lib/i18n.ts). Every module that names its keys imports this first.
import { addMessages } from '@/lib/i18n';
import messages from '@/locales/en-US/setup.json';
import welcome from '@/locales/en-US/welcome.json';

addMessages('setup', messages);
addMessages('welcome', welcome);
