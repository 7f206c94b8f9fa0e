// A seat in a party this device took (a party made in the lobby, a challenge to a program, a
// join on the invite page): kept where the party page looks for it, and the way to that page.
import { store, seatKey, LAST_TABLE } from "../util.js";
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

/** A seat at a party's table already started (quick pairing's or a challenge's `paired`:
 * {code, member, token, url, table}): keep it, and open the table. */
export function enterTable(paired) {
  keepPartySeat(paired);
  store.setRaw(seatKey(paired.table), paired.token);
  store.setRaw(LAST_TABLE, paired.table);
  location.hash = `#/table/${encodeURIComponent(paired.table)}`;
}
