// Events that cross features without one importing the other: the user menu
// raises them, whoever cares (the chat) listens on window.

export const MAIN_MENU_CHAT_SELECTED = 'main-menu-chat-selected';

export function raiseChatSelected() {
  window.dispatchEvent(new CustomEvent(MAIN_MENU_CHAT_SELECTED));
}
