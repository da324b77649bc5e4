"""Card abilities in the kernel, one module per faction (reference/cards/ module by module).

A module defines those of the hooks below that its cards have, switching on the card's name
code (``hooks`` calls the card's faction's, and gives the neutral answer for a faction without
the hook); a card without the ability in question does nothing / returns the neutral value:

- ``card_step(st, d, hook, step) -> next step or DONE``: the resumable part of a card — its
  on-play ability (H_ON_PLAY), an action's effect (H_ACTION), a play-on action's arrival
  (H_ATTACH), a talent used (H_TALENT), a before-scoring Special used (H_SPECIAL). Frame ``d``
  holds the player (``fs[d, F_P]``), the card (``F_C``), its slot (``F_S``) and registers
  ``F_Y, F_Z, F_I, F_J, F_K``, ``sc[d]`` a scratch list. A step that pushes a frame (a play at
  once) returns the step to continue at; the last step returns DONE.
- ``host(st, p, c, hosts, k) -> index``: the baseline's host for a play-on action
  (``hosts[:k]`` slots or minions in the reference's order).
- ``want(st, p, c)``: the baseline plays this action card now.
- ``talent_usable(st, p, x)``, ``talent_want(st, p, x)``: a talent of card x in play.
- ``after_played(st, x, m)``: card x in play reacts to minion m having been played.
- ``start(st, p, x)`` / ``end(st, p, x)``: turn-edge abilities of card x in play.
- ``specials(st, q, s, n) -> n``: before-scoring Specials ``q`` may use on slot ``s``,
  appended to ``opt`` rows from ``n`` as (code, a, b); ``special_want(st, q, s, code, a, b)``.
- ``after_special(st, q, s, m)``: an after-scoring Special of minion m (Scout, First Mate).
- ``extra_moves(st, p, n) -> n`` / ``extra_want(st, p, i)``: Play Cards moves a faction adds
  (They're Coming To Get You).

Destruction triggers (Nukebot, Gremlin, Microbot Archive, Cave of Shinies) are in ``triggers``:
they run inside ``destroy``, which card modules call.
"""
