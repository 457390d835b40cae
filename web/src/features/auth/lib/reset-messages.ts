// The password reset's area of the message catalogue ("reset"): the Reset Password dialog and /reset
// both load lazily, so their words stay off /login's first load (lib/i18n.ts). Each module that names
// its keys imports this first.
import { addMessages } from '@/lib/i18n';
import messages from '@/locales/en-US/reset.json';

addMessages('reset', messages);
