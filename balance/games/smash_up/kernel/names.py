"""Every card and base name the kernel knows, as fixed integer codes (compile-time constants).

The kernel checks a card's identity by its name code (``D_NAME`` of its definition), never by
string. The order is fixed: appending is safe, reordering changes no result but invalidates
nothing either, since codes are only compared with these constants.
"""
import re

CARD_NAMES = (
    # Aliens
    "Supreme Overlord", "Invader", "Scout", "Collector", "Abduction", "Beam Up", "Crop Circles",
    "Disintegrator", "Invasion", "Jammed Signal", "Probe", "Terraforming",
    # Dinosaurs
    "King Rex", "Lasertops", "Armor Stego", "War Raptor", "Augmentation", "Howl",
    "Natural Selection", "Rampage", "Survival of the Fittest", "Tooth and Claw...and Guns",
    "Upgrade", "Wildlife Preserve",
    # Ninjas
    "Ninja Master", "Tiger Assassin", "Shinobi", "Ninja Acolyte", "Assassin", "Disguise",
    "Hidden Ninja", "Infiltrate", "Poison", "Seeing Stars", "Smoke Bomb", "Way of Deception",
    # Pirates
    "Pirate King", "Buccaneer", "Cut Lass", "First Mate", "Broadside", "Cannon", "Dinghy",
    "Full Sail", "Powderkeg", "Sea Dogs", "Shanghai", "Swashbuckling",
    # Robots
    "Nukebot", "Warbot", "Hoverbot", "Zapbot", "Microbot Alpha", "Microbot Archive",
    "Microbot Fixer", "Microbot Guard", "Microbot Reclaimer", "Tech Center",
    # Tricksters (current; the 2012 list adds Disenchant and spells Take the Shinies)
    "Leprechaun", "Brownie", "Gnome", "Gremlin", "Pixie", "Block the Path", "Enshrouding Mist",
    "Flame Trap", "Hideout", "Mark of Sleep", "Pay the Piper", "Take The Shinies", "Disenchant",
    # Wizards
    "Archmage", "Chronomage", "Enchantress", "Neophyte", "Mass Enchantment", "Mystic Studies",
    "Portal", "Sacrifice", "Scry", "Summon", "Time Loop", "Winds of Change",
    # Zombies
    "Zombie Lord", "Grave Digger", "Tenacious Z", "Walker", "Grave Robbing", "Lend a Hand",
    "Mall Crawl", "Not Enough Bullets", "Outbreak", "Overrun", "They Keep Coming",
    "They're Coming To Get You",
)
ALIASES = {"Take the Shinies": "Take The Shinies"}  # the 2012 list's spelling

BASE_NAMES = (
    "The Homeworld", "The Mothership", "Jungle Oasis", "Tar Pits", "Ninja Dojo", "Temple of Goju",
    "The Grey Opal", "Tortuga", "Factory 436-1337", "The Central Brain", "Cave of Shinies",
    "Mushroom Kingdom", "School of Wizardry", "The Great Library", "Evans City Cemetery",
    "Rhodes Plaza Mall",
)


def card_code(name: str) -> int:
    return CARD_NAMES.index(ALIASES.get(name, name))


def _constant(name: str) -> str:
    return "N_" + re.sub(r"[^A-Z0-9]+", "_", name.upper()).strip("_")


# module constants N_KING_REX, N_WAR_RAPTOR ... and B_TAR_PITS ... for the kernels
for _i, _n in enumerate(CARD_NAMES):
    globals()[_constant(_n)] = _i
for _i, _n in enumerate(BASE_NAMES):
    globals()["B" + _constant(_n)[1:]] = _i
