"""The three rules pages in English (our own summaries, as the Russian ones in ``pages``)."""

from __future__ import annotations

RUMBLE = """
<h2>Rules of «Rumble»</h2>
<p>Every player is a battle wizard. A fight goes on until one wizard (or nobody) is left alive.
A tournament is three fights; medals come for kills and for surviving, and whoever has more
medals wins (all leaders win a tie). In «Best of two wins» fights go on until someone survives
twice.</p>
<h3>A round</h3>
<ol>
<li>Every living wizard draws up to 8 cards.</li>
<li><b>Assembly.</b> Against the timer each wizard secretly seals a spell of 1–3 cards: at most
one source, one quality and one delivery. Wild magic fills any empty place. Opponents see only
the number of cards and the place in the queue. If the timer runs out, one card is sealed for the
wizard (a delivery if possible).</li>
<li><b>Queue.</b> Spells of fewer cards go first; among equals, the higher delivery initiative
(wild magic as the delivery, or no delivery, is initiative 0), then a roll. The exact initiative
shows when the spell is revealed.</li>
<li><b>Casting.</b> The spell is revealed and named whole — quality, delivery, «of» the source:
"Sparkling Thunderbolt of the Spark Lord". Cards act in the order source → quality → delivery.
Wild magic, when revealed, is replaced by the first fitting card from the top of the deck.</li>
</ol>
<h3>The mighty roll</h3>
<p>First the target is chosen, then the dice are rolled: one d6 for each sign of the card's
school on your spell's cards, face-up creatures, diseases, ghost sign and sign treasures. A
boosted source and the Rod of Might add +1 each. A total of 1–4, 5–9 or 10+ picks the card's
effect.</p>
<h3>Targets</h3>
<p>The left and right enemy are the nearest living neighbours that way. Among equally weakest or
toughest enemies you choose. A random victim is rolled on a d6 among the living enemies, spare
faces rolled again.</p>
<h3>Creatures, treasures, the Palace, diseases</h3>
<p>A creature that rolls 5+ stays face up, gives its sign and attacks again on your next turn.
When an enemy's hit flies at you, you see its size and may discard a face-up creature to absorb
it whole; the Scaly Cloak makes every enemy hit 1 smaller before that question. Active treasures
are used once a turn, paid for with cards from your hand. The Palace's owner is safe from other
wizards' infections; whoever kills the owner takes the Palace. Disease tokens are drawn blind;
eternal diseases survive death and a new fight.</p>
<h3>Death and medals</h3>
<p>A wizard who dies loses hand, creatures, ordinary treasures and diseases, draws a ghost card
at once and another at the start of each round. The kill medal goes to whoever's effect killed
(not for yourself; a disease's text gives no medal). The survivor's medal goes to the last one
alive, even one who died with the last enemy by their own spell. A Surprise in a sealed spell
not yet applied cancels death if the wizard has at least one disease.</p>
<h3>Fair play</h3>
<p>No server and no host sees anyone's cards: all players shuffle the deck together
(cryptographically), spells are sealed with commitments, dice come from joint randomness, and at
the end every browser checks that nobody cheated.</p>
"""

CIRCLE = """
<h2>Rules of «Magic Circle»</h2>
<p>A survival game for 3–8 wizards. Each has 5 lives and 5 action cards in hand (at most 6). The
spell deck is open to all, the action deck is closed: only a card's owner sees it.</p>
<h3>A turn</h3>
<ol>
<li><b>Start of the turn.</b> Start-of-turn effects happen (burns, say). The top spell flies out
of the circle at whoever holds the totem. The room's creator gets the totem first.</li>
<li><b>Scramble.</b> Any living wizard may play an action at any moment — even when the spell
flies at someone else. WIND left and WIND right blow the spell to its target's neighbour, WIND all
ways to any living wizard, DISPEL sends the spell to the discard without touching anyone. If
nobody plays anything during the countdown (a room setting), the spell hits its target: they lose
lives equal to its power, then its keyword acts.</li>
<li><b>End of the turn.</b> End-of-turn effects; the totem passes to the next living wizard on
the left. If any action was played this turn, everyone with fewer than 5 cards draws 2, and with
exactly 5 draws one. With no actions nobody draws. If nobody has any card, everyone draws 3. An
empty action deck is reshuffled from the discard.</li>
</ol>
<h3>Keywords</h3>
<p>Every spell has a power and a keyword explained on the card. FIRE with FANNING, for one, grows
by 1 at every second change of target. Every card and its keyword are in the catalog.</p>
<h3>Who wins</h3>
<p>A wizard at 0 lives or less is out, and their cards go to the discard. The last one alive
wins. If all who are left fall at once, nobody wins.</p>
<h3>Fair and fast</h3>
<p>The host orders simultaneous plays: whoever was first blew the spell away. If the spell has
already changed target, your action is not played and the card stays yours. Nobody but its owner
sees a hand; all players shuffle the deck together.</p>
"""

NEVERMORE = """
<h2>Rules of «Nevermore»</h2>
<p>A game for 3–6 players of drafting, suit majorities and ravens. Health is 5 (3–4 players) or 4
(5–6 players); everyone starts with one Shadow magic card. The first dealer is found by turning
up main deck cards until a raven appears.</p>
<h3>A round</h3>
<ol>
<li><b>Draft.</b> Everyone is dealt 5 cards. Players secretly pass 3 cards to a neighbour, then 2,
then 1; the direction changes every round. Only you see what you received.</li>
<li><b>Flock.</b> Whoever has 5 ravens has a flock: 1 damage to everyone else, a Shadow card, +1
VP, and the round ends at once.</li>
<li><b>Resolution.</b> Tokens set the order of the suits (Attack, Healing, Radiance, Victory in the
first round; hidden later). The called suit is revealed by everyone at once. A majority's effect
is the difference between your count and the second highest; leaders who tie all get it. Attack
hits (4+ cards may hit everyone for 2), Healing heals (at full health +1 VP per 3), Radiance gives
Light magic cards (5 radiance: +2 health and +1 VP), Victory gives VP. Ravens secretly destroy
other players' cards, laid face down; 3–4 hidden ravens act last.</li>
<li><b>End of the round.</b> The neighbour on the left deals next, and the deck is shuffled
anew.</li>
</ol>
<h3>Raven form and winning</h3>
<p>A player without health becomes a raven: they score no points but peck humans and may return
to human form (5 cards of one suit, or one of each). A human with 6 VP wins (a tie goes to more
VP, then health), or the last human left, or a raven whose peck turned every human into a raven.
Light and Shadow cards are played in their windows, in order from the dealer's neighbour.</p>
"""

RULES = {"rumble": RUMBLE, "circle": CIRCLE, "nevermore": NEVERMORE}
