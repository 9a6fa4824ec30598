"""The WarEngine 2.1 (004_f4ea5693af0644ce.txt) as a second ruleset on the warbench kernel.

Troop Builder V2.1 and Force Builder V2.1 costs and limits (:mod:`.costs`, :mod:`.validation`),
validated data files (:mod:`.models`, :mod:`.io`), profile cards (:mod:`.card`) and XkY dice
with exact odds (:mod:`.dice`).
"""

RULESET_VERSION = "warengine-2.1+warbench.1"
