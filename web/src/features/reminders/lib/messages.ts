// The reminders area of the message catalogue, loaded with this feature rather than with /login
// (lib/i18n.ts). Every module that names its keys imports this first.
import { addMessages } from '@/lib/i18n';
import messages from '@/locales/en-US/reminders.json';

addMessages('reminders', messages);
