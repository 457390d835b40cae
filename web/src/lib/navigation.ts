// Lets code outside React (the API client, logout) move the app to another
// path. The app layer registers the router's navigate; before that a full page
// load is the fallback.

type Navigator = (to: string) => void;

let navigator: Navigator = (to) => window.location.assign(to);

export function setNavigator(next: Navigator) {
  navigator = next;
}

export function navigateTo(to: string) {
  navigator(to);
}
