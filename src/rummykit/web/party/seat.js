// A seat in a party this device took (a party made in the lobby, a challenge to a program, a
// join on the invite page): kept where the party page looks for it, and the way to that page.
import { store } from "../util.js";
import { partyKey } from "./model.js";

/** Keep the seat a party's answer gave (PartyJoined: {code, member, token, url}). */
export function keepPartySeat(joined) {
  store.set(partyKey(joined.code), { token: joined.token, member: joined.member });
}

/** Keep the seat and open the party's page by its link: the link's key too, which finds the
 * party without the site's limit on codes alone (see party.js). */
export function enterParty(joined) {
  keepPartySeat(joined);
  location.hash = joined.url.slice(joined.url.indexOf("#"));
}
