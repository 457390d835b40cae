// The chat area of the message catalogue, loaded with the logged-in chrome rather than with /login
// (lib/i18n.ts). Every module that names its keys imports this first.
import { addMessages } from '@/lib/i18n';
import messages from '@/locales/en-US/chat.json';

addMessages('chat', messages);
