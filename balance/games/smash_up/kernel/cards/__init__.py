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
- ``want(st, p, c)``: the baseline plays this action card now (asked when the card's data
  gives no ``want``).
- ``talent_usable(st, p, x)``, ``talent_want(st, p, x)``: a talent of card x in play (usable
  asked when the data gives no ``usable``).
- ``special_want(st, q, s, a[, b])``: the baseline uses card a's before-scoring Special on
  slot ``s`` (target b); which Specials are offered is the data's ``window``
  (``kernel/window.py``).
- ``extra_moves(st, p, n) -> n`` / ``extra_want(st, p, i)``: Play Cards moves a faction adds
  (They're Coming To Get You).

Hosts, after-played and turn-edge abilities and after-scoring Specials are data now
(``host``, ``after_played``, ``start``, ``end``, ``after_scoring`` in data/effects).

Destruction triggers (Nukebot, Gremlin, Microbot Archive, Cave of Shinies) are in ``triggers``:
they run inside ``destroy``, which card modules call.
"""
