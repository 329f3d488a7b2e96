"""Regression (output bytes): the item files of fixed runs are pinned by their SHA-256.

Speed work on generation (the flip sweep, orjson, caches) must not change a
byte of any item: the same cards, base, recipes, N and seed give the same
file, in any number of worker processes. The digests were taken from the
code before that work (main at b8e8925) and must only change with a
deliberate change of the item format or of the question wording, in the same
commit as that change and with the reason in its message.

Changed deliberately (issue 18, branch s18c): buffett-bench-recipes and
l8-three-investors each held one temporal item (regime expansion_2017) whose
facts were the base's: only the date moved, ``changes: []``, the base's gold.
Such an item is now never written (duplicates are keyed on the facts the
cards read), and the next candidate takes its place; every other line is
unchanged.

Changed deliberately (issue 18, branch s23items, question wording only):
buffett-bench-recipes and l8-three-investors. Every item keeps its id,
scenario, gold, GRP and manifest; only ``question`` and the condition-B
block that hashes it differ (checked line by line against the old files).
The undisclosed input now reads "The evidence on management's integrity and
capital allocation is not disclosed." (was "Not disclosed: evidence on
..."); Dalio's bool reads "Is the central bank buying financial assets ...?
No." (was "Whether the central bank is buying ...: no."), and its
``new_buyer_percentile`` is named by its description, "The percentile of the
inflow of buyers who were not previously in the market is 85%." (was "The
new buyer percentile is 85%."). The pinned cards themselves are unchanged;
marks-defaults is unchanged.

Changed deliberately (issue 18, branch s23items, the pinned cards' review
findings): all three runs, because all three cards changed (every line's
card content hash, ``ipb-cards/`` source and condition-C key differ).
Buffett's revenue facts read true of any business model ("The company has
$5B of annual revenue.", "Existing customers pay 110% of what they paid a
year earlier.", "It is offered at 10x its annual revenue."; were "annual
recurring revenue" and "The net revenue retention of existing customers
is ...") and its management record reads "candid and owner-oriented":
buffett-bench-recipes keeps all 240 ids, scenarios, golds and GRPs in
order, only ``question`` and the blocks that hash the card or the question
differ. Marks gained two constraints (no panic below an 8% spread, no calm
above 12%): marks-defaults dropped 58 items (35 broke a new rule, the other
23 follow from the changed draw sequence) and drew 58 others; the 92 kept
items have the same scenario, gold, GRP and question (2 reached by another
operator). Dalio gained "no QE with a real policy rate above 1%":
l8-three-investors dropped the 2 items with QE at +2.75% and drew 2 others;
the 88 kept items differ only as the Buffett run does.

Changed deliberately (issue 18, branch s24qual, the second bar review): the
Buffett checklist gained "a utility grows at most 10% a year" and Marks's
cycle card "a spread above 12% means tight capital" and "fearful is not
loose" (every line's card content hash, ``ipb-cards/`` source and condition-C
key differ). buffett-bench-recipes dropped the 4 sector items that made the
SaaS base a utility growing 25-28% a year and drew 4 others; the 236 kept
items keep id, order, scenario, gold, GRP and question. l8-three-investors
dropped the 1 item with a utility growing 28% and drew 1 other; the 89 kept
ones differ only in the card blocks. marks-defaults dropped 37 items (28
broke a new rule: panicked or fearful with normal capital above 12%, fearful
with loose capital; the other 9 follow from the changed draw sequence) and
drew 37 others, none breaking a rule; the 113 kept items keep scenario,
gold, GRP and question (5 reached at another attempt, 4 by another
operator). Mix: isolate 94 -> 97, metric 54 -> 53, flip 2 -> 0.

Changed deliberately (issue 18, branch s24qual, the review's re-reads): the
Buffett checklist's ``crypto_asset`` reads "crypto-asset trading and
custody" (a token has no revenue or customers), and Marks's cycle card
gained "panic means tight capital", "optimism is not tight capital" and
"tight capital needs a spread of 5% or more". buffett-bench-recipes: the
same 240 items, only the card blocks differ (no item states a crypto asset).
l8-three-investors: the same 90 items; 3 questions read the new crypto label,
the rest differ only in the card blocks. marks-defaults dropped 41 items (17
broke a new rule, the other 24 follow from the changed draw sequence) and
drew 41 others, none breaking a rule; the 109 kept items keep scenario,
gold, GRP and question. Mix: isolate 97 -> 99, metric 53 -> 51.

Changed deliberately (issue 18, branch s24qual): ``frameworks/sectors.yaml``
no longer lists "utility" as an oil and gas business model (a move to energy
drew the oil-price growth range for a utility). buffett-bench-recipes keeps
232 of 240 items in order, unchanged; it dropped the 4 energy items made a
utility and 4 others the changed draw sequence moved, and drew 8 energy
items that are industrial manufacturers (verdicts unchanged, DECLINE 158,
INVEST 82). l8-three-investors keeps 89 of 90; one banking item became an
energy manufacturer. marks-defaults is unchanged.

Changed deliberately (issue 18, branch s24qual): the Buffett checklist's
"revenue grows at least as much as existing customers' spending"
(growth >= retention - 1). buffett-bench-recipes dropped the 5 items that
broke it (retention 127% or 128% with 25% growth; 108-116% with 1-7%) and
drew 5 others; l8-three-investors dropped 1 (129% with 25%). Every kept item
(235 and 89, in order) differs only in the card blocks.

Changed deliberately (issue 18, branch s25cards): metric substitution redraws
a value that breaks a card constraint among the grid values that keep it
(``ipb.perturb.feasible``) instead of handing the candidate to the run to
reject; a draw that keeps the constraints uses no extra random number. Every
item that was written before is still correct, but accepted candidates now
arrive in another order, so positions shift. buffett-bench-recipes keeps 232
of its 240 scenarios (same question, gold and GRP) and drew 8 metric items
whose net income the old draws broke a rule with (e.g. gross margin 10% with
$100M of net income on $5B of revenue); the recipe mix is unchanged.
marks-defaults keeps 149 of 150 (metric 51 -> 52, isolate 99 -> 98).
l8-three-investors keeps 72 of 90 and drew 18 metric items (spreads, Dalio's
percentiles and Buffett's net income now drawn inside the rules), mix
unchanged. I read the 27 new items: none breaks a constraint or contradicts
another fact.

Changed deliberately (issue 18, branch s25cards): Marks's cycle card steps
the high-yield spread by 0.1% (was 0.25%), so that each of its bases makes
1,000 distinct items with no --ops (cold_aggressive_2008 made 569). Every
line's card content hash, ``ipb-cards/`` source and condition-C key differ.
marks-defaults keeps 21 of its 150 scenarios (same question, gold and GRP);
metric is no longer exhausted at 52 distinct spreads and takes its full share:
mix metric 52 -> 75, isolate 98 -> 75; verdicts AGGRESSIVE 81 -> 107,
INCREASE_RISK 41 -> 28, BALANCED 16 -> 9, DEFENSIVE 6 -> 4,
RETURN_TO_BALANCED 6 -> 2 (a metric item moves only the spread of a panicked,
tight-capital base, which stays cold). l8-three-investors keeps 68 of 90
items in the same positions; the 22 others (20 metric, 2 isolate) drew
spreads on the new grid (2.7-7.8%), mix unchanged. I read the new items of
both runs (the 61 new marks-defaults metric items: spreads 8.3-21.9%, all
panicked with tight capital; the isolate moves): none breaks a rule or
contradicts another fact.

Changed deliberately (issue 13, branch s28final, card hash only): the bubble
gauge and Marks's cycle card gain ``verdict_synonyms`` (phrases the answer
parser reads as their final verdicts; the engine, the scenarios and the
questions do not read them). Their card content hash, ``ipb-cards/`` source
and condition-C key change in marks-defaults and l8-three-investors; every
other byte is the same (checked: the old and new files are equal once every
64-hex digest is masked; 150 and 90 lines).

Changed deliberately (issue 18, branch s28review, the third review's card
rules): Buffett's card now keeps a subscription-software gross margin at 40%
or more, and the bubble gauge bars prices below the median discounting more
than five points above sustainable growth. Every line's card content hash,
``ipb-cards/`` source and condition-C key differ (both cards are in both
runs; marks-defaults is unchanged). buffett-bench-recipes keeps 221 of its 240
scenarios with the same question, scenario and gold (173 in the same
position); of the 19 replaced, 10 stated subscription software at 11-37%
gross margin, the others (9 flips from anchors, metric and sector draws) moved
because a draw redrawn inside the new rule consumes other random numbers.
l8-three-investors keeps 87 of 90 in the same positions; 2 of the 3 replaced
had a 15% or 19% gross margin. I read the 22 new items: none breaks a rule;
strains left as they were (retention 50% beside growth 25%; an L8 isolate
dating the Buffett macro regime "credit crisis" beside a 5.4% spread with
optimistic investors, a cross-card relation no card states).

Changed deliberately (branch s28review, re-read): the bubble gauge also bars
prices above the median discounting more than five points below sustainable
growth. l8-three-investors keeps 89 of 90 items in place; one isolate item
(valuation 60%, discounted 11.5% against 9.5%) gave way to another isolate item
of the same anchor search (60%, 11.5% against 12.5%; read, no contradiction).
Every line's card blocks differ. The other two runs are unchanged.

Changed deliberately (branch s28review, perturb/targeted.py): a flip or
isolate anchor whose draw breaks a card rule now redraws its numbers inside
the rules instead of drawing afresh. The cards are unchanged. marks-defaults
(cold_aggressive_2008) gains flip items: mix metric 75 -> 62, isolate 75 -> 61,
flip 0 -> 27; verdicts AGGRESSIVE 107 -> 89, INCREASE_RISK 28 -> 20,
BALANCED 9 -> 13, RETURN_TO_BALANCED 2 -> 13, DEFENSIVE 4 -> 9, REDUCE_RISK
0 -> 6; 92 of its 150 scenarios are kept. buffett-bench-recipes keeps 216 of
240 scenarios (204 in place); the 24 replaced are flip items from repaired
anchors, mix and verdict balance unchanged (INVEST 82 -> 83).
l8-three-investors keeps 81 of 90 in place (5 flip and 4 isolate items
replaced). I read the 58 new marks-defaults scenarios, the 24 Buffett and the
9 L8 ones: none breaks a rule or contradicts another fact (strain as before:
an L8 item dates the Buffett regime "credit crisis" beside a 7.3% spread and
optimistic investors).

Changed deliberately (branch s28review, last): Buffett's subscription-software
margin floor is 35% (the registry's lowest where it is typical, so a sector
move never breaks it) and 50% sold as enterprise software. Against the pins
just above, buffett-bench-recipes keeps 213 of 240 scenarios (165 in place;
the replaced ones redraw margins of 36-48% in enterprise software), mix and
verdicts unchanged; l8-three-investors keeps 87 of 90 in place; marks-defaults
is unchanged. New items read: none breaks a rule (strains: retention 50-66%
beside growth 25-58%; 36-37% margins in industrial automation).

Both at once (integration of s28final and s28review): marks-defaults and
l8-three-investors carry both branches' changes. Their files equal
s28review's once every 64-hex digest is masked (the synonyms change only the
card content hash, its ``ipb-cards/`` source and the condition-C key).

Changed deliberately (issue 18, branch s29gen, generation speed): on a card
with more stated ranged inputs than an anchor moves (Buffett: 6), a flip no
longer searches along an input its anchor moved (such a flip undid the
anchor's draw of it, and 55% of those items were duplicates of one made
before; another anchor is drawn instead). buffett-bench-recipes keeps 218 of
240 ids (217 identical, in place); it dropped 22 flip items and drew 22
others, the mix unchanged (metric 79, sector 79, temporal 4, flip 78).
l8-three-investors keeps 88 of 90 items identical and in place, 2 flip items
replaced by 2 others. marks-defaults is unchanged (its flip searches the
anchor's inputs last). The spent-sub-space rule of metric and sector
(``ipb.perturb.spaces``) moves none of these runs: it acts only after about
2,700 attempts of a recipe on the Buffett card.

Changed deliberately (issue 18, branch s30flip, generation speed): a flip
anchor drawn from the run's base with a move after which no other stated
ranged input can flip the verdict (``ipb.perturb.targeted._dead_move``: a
business model outside the circle, self-serving management, a retention or
margin below the moat's floor, a multiple no growth in range can justify) is
dropped before its constraints, repair and search, and the next is drawn;
the random numbers those steps used are no longer drawn, so later anchors
differ. buffett-bench-recipes keeps 223 of 240 ids (221 in place); it
dropped 17 flip items and drew 17 others, the mix unchanged (metric 79,
sector 79, temporal 4, flip 78), verdicts DECLINE 159/INVEST 81 ->
161/79; ``ipb verify`` passes all 240. I read 3 of the new ones: flips of
the price multiple down to 3.5x from anchors that moved revenue, retention,
margin, net income or management. marks-defaults (4 inputs: not screened)
and l8-three-investors are unchanged.

Changed deliberately (issue 18, branch s33plaus, the stop-32 review's listed
findings): the Buffett card keeps subscription software's retention at 75% or
more and a bank's or insurer's gross margin at 80% or less and its price at
4x revenue or less, and the sector registry gives financials those two ranges
(a move to financials kept a software base's 90% margin and 7x price).
buffett-bench-recipes keeps 202 of 240 ids, all in place; it dropped 38
(metric 12, e.g. retention 53-74%, sector 12, flip 14) and drew 38 others,
the mix unchanged (metric 79, sector 79, temporal 4, flip 78), verdicts
DECLINE 161/INVEST 79 -> 160/80. l8-three-investors keeps 79 of 90 ids in
place (dropped metric 2, sector 4: insurers and banks at 90% and 10x, flip
2, isolate 3). The kept items' questions and scenarios are byte-identical;
marks-defaults is unchanged.

Changed deliberately (issue 18, branch s34rules, the s33review3 contradiction): the
Buffett checklist allows a crypto-asset business only in financials (it allowed
enterprise software too; the pairs now follow ``frameworks/sectors.yaml``).
Every line's card content hash, ``ipb-cards/`` source and condition-C key
differ. l8-three-investors keeps 86 of 90 ids, all in place and otherwise
identical; it dropped the 4 isolate items that filed crypto-asset trading and
custody under enterprise software and drew 4 other isolate items
(subscription software, mix unchanged). buffett-bench-recipes keeps 239 of 240
ids in place, otherwise identical; one flip item (a changed redraw inside the
rules) gave way to another flip (subscription software at 2x revenue growing
2%). marks-defaults is unchanged.

Changed deliberately (issue 18, branch s36rules, the s35review2 proposed rules): the
sector registry's financials omit gross_margin and revenue_retention (a move there
drops them; their two ranges are gone), and the Buffett checklist gained
subscription_growth_within_the_record_for_its_size (above $10B of revenue at most 30%
growth, above $20B 25%, above $30B 20%). Every line's card content hash,
``ipb-cards/`` source and condition-C key differ. buffett-bench-recipes keeps 204 of
240 ids (202 in place; their questions and scenarios are otherwise identical); it
dropped 12 sector items (banks and insurers stating a gross margin and a retention),
18 flips and 6 metric items (most of them software above $20B of revenue growing
25-60%, the rest moved by the changed draw sequence), and drew as many of each
recipe (mix unchanged: metric 79, sector 79, temporal 4, flip 78); the new
financials state no gross margin and no retention. Verdicts DECLINE 160/INVEST 80 ->
DECLINE 158/INVEST 79/INCONCLUSIVE 3 (a bank or insurer with no retention to read
leaves gate 1 undecided). l8-three-investors keeps 81 of 90 ids, all in place; it
dropped 4 sector (banks, insurers), 4 flip and 1 metric items for the same rules and
drew as many others, mix unchanged. marks-defaults is unchanged.

Changed deliberately (issue 18, branch s37rules, s36review2 R4 and R5): the sector
registry's ``models:`` gives subscription software a 60-90% gross margin in any
industry and energy omits revenue_retention (rule R4), and the Buffett checklist
gained subscription_price_within_reach_of_its_growth (at least 0.1x revenue per point
of growth, rule R5). Every line's card content hash, ``ipb-cards/`` source and
condition-C key differ. buffett-bench-recipes keeps 202 of 240 ids, all in place and
otherwise identical; it dropped 33 sector items (software vendors in industrial
automation at 36-55% gross margin, oil producers stating the software base's 95%
retention, and healthcare software whose margin is now drawn on the model's range), 3
metric and 2 flip items (software at 1-1.5x revenue growing 25-43%, 2x growing 25% and
4x growing 58%), and drew as many of each recipe (mix unchanged). Verdicts DECLINE
158/INVEST 79/INCONCLUSIVE 3 -> 156/81/3. l8-three-investors keeps 75 of 90 ids, all in
place and otherwise identical; it dropped 12 sector items (the same kinds), 2 isolate
and 1 metric item (software at 1-2x revenue growing 25%) and drew as many others, mix
unchanged. marks-defaults is unchanged.

Changed deliberately (issue 18, branch s40util): the Buffett checklist's
subscription_price_within_reach_of_its_growth asks 0.08x revenue per point of growth
(0.04x in a recession or credit crisis) instead of 0.1x, keeping Box (February 2016)
and Salesforce (November 2008). Every line's card content hash, ``ipb-cards/`` source
and condition-C key differ. buffett-bench-recipes keeps 236 of 240 ids, all in place,
their questions and scenarios byte-identical; 3 metric items and 1 flip gave way to as
many of the same recipes (the changed redraws: software growing 25% at 2x and 7x, 43%
at 12.5x); verdicts DECLINE 156/INVEST 81/INCONCLUSIVE 3 -> 157/80/3.
l8-three-investors keeps 89 of 90 ids, all in place and otherwise identical; one metric
item gave way to another (software growing 25% at 2x). marks-defaults is unchanged.

Changed deliberately (issue 18, branch s40buff, review39's Buffett kinds): the Buffett
checklist gained subscription_revenue_within_its_largest_vendors (BA1),
subscription_losses_within_the_record_for_their_size (BA3) and
manufacturers_keep_a_manufacturers_gross_margin (BA2), and frameworks/regimes.yaml's
``multiples`` the price of subscription-software growth from 2024 (BA4: at least 0.15x
revenue a point of growth at a 70% gross margin, 0.2x from $2B at 60%). Every line's card
content hash, ``ipb-cards/`` source and condition-C key differ. buffett-bench-recipes
keeps 173 of 240 ids (18 in place; their questions and scenarios are otherwise
identical); it dropped 61 flip and 6 metric items, all subscription software dated
2024-06-30, every one refused by the new rules: 66 priced under the new floor of the
price of growth alone (most of them flips to INVEST at 3-3.5x revenue growing 17-25%, $3-27B
of revenue), 1 with $49.9B of revenue (BA1, under the floor too), and drew as many of each
recipe (mix unchanged). Verdicts DECLINE 156/INVEST 81/INCONCLUSIVE 3 -> 160/77/3. l8-three-investors keeps all 90 ids in place, otherwise
identical but for the card blocks. marks-defaults is unchanged.
Both together (merged on s40int): against s40buff's pins, buffett-bench-recipes keeps
237 of 240 ids and l8-three-investors 89 of 90; the few others are items the lower
s40util floor lets through or refuses differently (same recipes, mix unchanged).

Changed deliberately (issue 18, branch s40items, review39 BA6): regimes.yaml's
dotcom_bust_2002 no longer carries the label "recession" (NBER: March-November 2001), so
the Buffett checklist's macro_regime reads "expansion" on 9 October 2002.
buffett-bench-recipes dropped its one 2002 temporal item (IPB-P-011-a816d18191160bee,
"recession", DECLINE): displaced with "expansion" it states the base's facts and only the
date moves, which is never written; one more flip (IPB-P-011-a889a05b2602f129, INVEST)
takes its place (temporal 4 -> 3, flip 78 -> 79; DECLINE/INVEST/INCONCLUSIVE 161/76/3 ->
160/77/3); the other 239 ids are kept and byte-identical (the lines after the dropped one
move up). l8-three-investors and marks-defaults are unchanged.

Changed deliberately (issue 18, branch s42buff, review41 BA3): regimes.yaml's ``multiples``
gained mid_2024_revenue_multiple_per_unit_of_retention (at most 25x revenue per unit of net
revenue retention from 2024 to August 2024). buffett-bench-recipes: 3 metric items dated
2024-06-30 at 24.5-30x revenue with 95% retention (IPB-P-011-4f37ed2a2a8fd613,
-5432ed6ba464ec0b, -e0d08eb81105625c, all DECLINE) gave way to 3 metric items at 10x
(DECLINE); the other 237 ids are byte-identical. Recipes metric/sector/flip/temporal
79/79/79/3 and verdicts DECLINE 160/INVEST 77/INCONCLUSIVE 3 unchanged; ipb verify 240 of
240, 0 breaking. l8-three-investors and marks-defaults are unchanged (the card is not).

Changed deliberately (issue 18, branch s42anchor): an anchored flip whose item would be refused
(a card constraint broken, or a fact outside its era on the kept date, most of them 2024's price of
subscription-software growth) is no longer taken, and the anchor screen counts such flips as none
(perturb/targeted._kept_flip, _dead_move; SCREENED_ANCHORS 32 -> 128); a metric draw and an anchor's
repair are made inside an era's bound on a quotient at the scenario's date (perturb/feasible.era_checks).
buffett-bench-recipes keeps 159 of 240 ids (17 in place); it dropped 74 flips and 7 metric items and
drew as many of each recipe (the last flip item's attempt 235 -> 82). Mix unchanged (metric 79, sector
79, temporal 3, flip 79); verdicts DECLINE/INVEST/INCONCLUSIVE 160/77/3 -> 155/82/3; ``ipb verify``:
240 of 240, 0 mismatches, 0 breaking a constraint. l8-three-investors and marks-defaults are unchanged.
Both together (merged on s42int): against s42anchor's pin, buffett-bench-recipes keeps 236 of
240 ids in place; the other 4 are the metric items s42buff's 2024 multiple-per-retention bound
refuses or lets through differently. Verdicts DECLINE/INVEST/INCONCLUSIVE 155/82/3 as s42anchor's;
``ipb verify``: 240 of 240, 0 mismatches, 0 breaking a constraint.

Changed deliberately (issue 18, branch s42rfixN, review42 R1): the Buffett checklist gained
new_customers_supply_a_bounded_share_of_growth_at_scale (subscription software with $2B or more of last
year's revenue grows at most 35 points beyond retention - 100%), so its content hash, ``ipb-cards/``
source and condition-C key differ. buffett-bench-recipes had 18 items past the bound (0 now); it keeps
164 of 240 ids (122 in place), all 164 byte-identical but for the card's hash; mix unchanged (metric 79,
sector 79, temporal 3, flip 79); verdicts DECLINE/INVEST/INCONCLUSIVE 155/82/3 -> 158/79/3.
l8-three-investors had 5 items past it (0 now); it keeps 80 of 90 ids in place, mix unchanged.
marks-defaults is unchanged. ``ipb verify``: 240 of 240 and 90 of 90, 0 mismatches, 0 breaking.

Changed deliberately (issue 18, branch s43user, question wording only): the 2009 credit crisis's description in
frameworks/regimes.yaml ended "stocks at their low (paper Table 9, Perturbation C)." and every question dated in
that regime printed it, naming the paper to the model ("... stocks at their low (paper Table 9, Perturbation
C))."); the reference is now a comment. buffett-bench-recipes: one line differs (its 2009 temporal item), in
``question`` and the condition-B block that hashes it only; its id, scenario, gold, GRP and manifest and the
other 239 lines are byte-identical (checked line by line against the old file). l8-three-investors and
marks-defaults are unchanged.

Changed deliberately (issue 18, branch s43items, review40/41 BA1): the Buffett checklist gained
a_large_financial_earning_nothing_is_priced_near_its_revenue (a bank or insurer with $1B or more of revenue and no
net income at most at 2.5x it), and the sector move draws inside the card's rules (perturb/operators.py,
redraw_if_broken). buffett-bench-recipes had 7 sector moves to financials at 3-3.5x with the base's $0 of net
income (and 3 flips whose search now ends elsewhere); it keeps 230 of 240 ids (226 in place), all 230 with the
same scenario (card hash aside); the 11 banks and insurers earning nothing now sit at 1-2.5x; mix unchanged
(metric 79, sector 79, temporal 3, flip 79); verdicts DECLINE/INVEST/INCONCLUSIVE 158/79/3 -> 154/79/7 (at
1-2.5x the price gates of a bank or insurer pass, and its first gates, which lack the retention and gross margin a
financial states none of, are undecided: INCONCLUSIVE where 3-3.5x declined). l8-three-investors
keeps all 90 ids in place, scenarios unchanged (card hash only). marks-defaults is unchanged. ``ipb verify``:
240 of 240 and 90 of 90, 0 mismatches, 0 breaking.
Both changes together (merged in s43int): buffett-bench-recipes is s43items' file with s43user's one 2009 question line.

Changed deliberately (issue 18, branch s43rfix, review43 R2/R3a/R3b): the Buffett checklist gained three
rules (at most 12x revenue in a credit crisis, 8x or more needs 10% growth or no loss, a growing profitable
business with $1B of revenue at 4x its net income or more), so its content hash, ``ipb-cards/`` source and
condition-C key differ. No item of either run broke a new rule. buffett-bench-recipes keeps 232 of 240 ids
in place (same scenario, question and GRP); its last 8 flips were drawn anew (the flip search meets the new
rules on its way), mix unchanged (metric 79, sector 79, temporal 3, flip 79), verdicts DECLINE/INVEST/
INCONCLUSIVE 158/79/3 unchanged. l8-three-investors keeps all 90 ids, scenarios, questions and golds in
place; only the card blocks differ. marks-defaults is unchanged. ``ipb verify``: 240 of 240 and 90 of 90,
0 mismatches, 0 breaking.
All three together (s43int): buffett-bench-recipes keeps 233 of 240 ids of the s43items+s43user file in place,
with the same scenario and question (card hash aside), verdicts 154/79/7 unchanged; its last 7 flips drawn anew.
l8-three-investors: card blocks only.
Changed deliberately (issue 18, branch s44items, review43b K12a, K12c): the Buffett checklist gained a rule (outside
software, biotech, pre-revenue technology and crypto, a business earning nothing and growing under 10% is offered at
most at 2x its revenue), so its content hash and condition-C key differ, and frameworks/regimes.yaml bounds 2024's
recurring software revenue at $41B. buffett-bench-recipes keeps 211 of 240 ids (210 in place) with the same scenario
and question; 29 were drawn anew: 22 items of K12a (railroads, retailers, manufacturers, brands, banks, insurers and
airlines earning $0 at 2.5-5x revenue), 3 of K12c (subscription software above $41B on 30 June 2024) and 4 later
draws moved by them; verdicts DECLINE/INVEST/INCONCLUSIVE 154/79/7 -> 152/79/9; no new item is of either kind.
l8-three-investors keeps 86 of 90 ids in place with the same scenario and question; the 4 drawn anew were of K12a.
marks-defaults is unchanged.
Changed deliberately (issue 18, branch s45rfix, s45review B4): frameworks/sectors.yaml's ``models:`` gained ``omits:``
(airline, railroad, retail, consumer brand, industrial manufacturing, utility omit revenue_retention), and the sector
move drops what the model it leaves omits. buffett-bench-recipes keeps 206 of 240 ids in place with the same scenario
and question; the other 34 are the sector moves that made the SaaS base one of those models: each keeps its place,
business model, sector and verdict, no longer states "Existing customers pay N% of what they paid a year earlier",
and its other sector metrics (gross margin, growth, multiple) are drawn anew, since the retention draw is no longer
taken (checked line by line against the old file); verdicts DECLINE/INVEST/INCONCLUSIVE 152/79/9 unchanged.
l8-three-investors keeps 84 of 90 ids in place; its 6 others are such moves (airline, railroad, manufacturer), same
place, model, sector and verdicts, retention dropped. marks-defaults is unchanged.
Changed deliberately (issue 18, branch s45rfix, s45review B2-B3): the Buffett checklist gained two rules
(profitable software growing 10% or more at 15 times its net income or more outside a recession or credit crisis;
13x revenue or more needs growth above 15% or a 25% net margin), so its content hash and condition-C key differ. Of
the file above, buffett-bench-recipes had 3 items that break a new rule (2 profitable growers under 15x earnings, 1
at 21.5x revenue growing 1%); it keeps 230 of 240 ids in place with the same question, the others drawn anew; no
new item breaks a new rule; verdicts DECLINE/INVEST/INCONCLUSIVE 152/79/9 unchanged. l8-three-investors keeps 89
of 90 ids in place (none of its items broke a new rule; one later draw moved). marks-defaults is unchanged.
Changed deliberately (issue 18, branch s48rfix, s47review BA5): the Buffett checklist gained
a_large_slow_subscription_business_earning_little_is_priced_under_eight_times_revenue (subscription software with
$10B of revenue or more, growing 12% or less and earning 5% of it or less, is offered under 8x), so its content
hash, ``ipb-cards/`` source and condition-C key differ. buffett-bench-recipes had 2 items that break it ($35B growing
9% and $41.2B growing 4%, both at 10x with no profit, metric); it keeps 231 of 240 ids in place, each the same but
for the card blocks; 9 were drawn anew: the 2, one later metric draw ($38.8B growing 1% at 3x, now at 2x) and 6
flips from anchors the rule now refuses (profitless $25-42B growing 1-12% at 10x, flipped to 1.5-2.5x); the new
flips are $1.3-6.4B growing 1-12% at 1.5-2.5x, gold INVEST (worked by hand, e.g. $3.2B growing 11% at 2.5x: value
0.8 x (10 + 4.4) = $11.52B, price $8B <= $8.64B); mix unchanged (metric 79, sector 79, temporal 3, flip 79),
verdicts DECLINE/INVEST/INCONCLUSIVE 152/79/9 unchanged; no new item breaks a card rule. l8-three-investors keeps
all 90 ids in place, only the card blocks differ. marks-defaults is unchanged.
Changed deliberately (issue 18, branch s50rfix, s45-s48 reviews B1, s49review BA14): the Buffett checklist gained
a_large_subscription_business_earns_a_profit (subscription software past $10B of revenue earns more than $0), with
``tie: true``, and a flip's anchor that breaks a tie is repaired by the partner following (targeted._tied_partners,
also in the dead-move screen). buffett-bench-recipes keeps 210 of 240 ids in place, each the same but for the card
blocks; 30 were drawn anew. The 30 dropped: 19 subscription businesses of $10.1-41.2B, 16 of them earning $0 or less
(e.g. $41.2B growing 15% at 10x with no income), and 11 items of $1.3-9.2B, flips and draws later in the same
streams. The 30 added: 18 of $10.1-41.2B, all earning $200M-$4.95B (e.g. $34.5B earning $4.95B, growing 7%, at 2x
in high inflation, gold INVEST: value 0.25 x $34.5B x (10 + 40 x 7%) = $110.4B, price $69B <= 0.75 x value =
$82.8B), and 12 of $400M-$8.4B; mix and verdicts DECLINE/INVEST/INCONCLUSIVE 152/79/9 unchanged; ``ipb verify``
passes all 240. l8-three-investors keeps 82 of 90 ids in place, the same but for the card blocks; the other 8 are
Buffett draws, 6 of which stated $17.4-29.9B with no income: 3 now state $17.4-26.3B with $250M-$4.2B of income,
5 state $1.5-8B with none; the verdict vectors move by one item (DECLINE/REDUCE_RISK/NO_BUBBLE 8 -> 7,
DECLINE/REDUCE_RISK/BUBBLE_REDUCE_RISK 47 -> 48); ``ipb verify`` passes all 90. marks-defaults is unchanged.
Changed deliberately (stop 50, integration): a metric step that picked both revenue and net income left net income to
follow revenue through that tie, and when the tie still held (revenue under $10B) net income did not move, so the
step changed one fact where two were picked (late attempts, whose one-input draws are spent, made 3 of 300 one-fact
changes; tests/perturb/test_perturb_spaces.py). Such a follower is now drawn on its own. buffett-bench-recipes keeps
237 of 240 items byte for byte; the 3 others keep their other facts and now state net income -$400M, -$450M and $1.2B
where they stated $0 (same DECLINE each); verdicts 152/79/9 unchanged; ``ipb verify`` passes all 240.
l8-three-investors and marks-defaults are unchanged.
Changed deliberately (issue 18, branch s52rfix, s52review kind 7): the Marks cycle card gained three mood-against-
spread rules (balanced at most 8%, optimistic or euphoric at most 6.5%, no spread under 2.3%) and its spread step
went from 0.1% to 0.05% so that every base still makes 1,000 items with no --ops. The finer grid changes the
draws: marks-defaults keeps 11 of 150 ids in place (verdicts AGGRESSIVE/INCREASE_RISK/RETURN_TO_BALANCED/BALANCED
89/20/13/13 -> 87/16/16/13), l8-three-investors 63 of 90; ``ipb verify`` passes all 150 and all 90.
buffett-bench-recipes is unchanged.
Changed deliberately (issue 18, branch s52rfix, s52review kind 11, question wording only): the Marks cycle card's
thesis_basis reads "The proposed posture rests on a reading of present market conditions." (was "The thesis basis
is present conditions."). marks-defaults and l8-three-investors keep every id and scenario in place; only
``question`` and the blocks that hash the card or the question differ; ``ipb verify`` passes both.
Changed deliberately (issue 18 item 4, branch s52dup, s52newuser findings 5 and 6), checked one change at a time
(/tmp script: each run with the old title and no near rule gives its old pin). (a) The L7 question no longer names the
investor twice: "Apply Warren Buffett's Acquisition Checklist" (was "Warren Buffett's Buffett Acquisition
Checklist"), Marks likewise; alone it changes only ``question`` and the condition blocks that hash it, same ids in
order (buffett-bench-recipes 023e01dd..., marks-defaults d1c2c3b9...). (b) A recipe keeps one item per near key
(ipb.perturb.near: numeric facts in 20 buckets of their range): buffett-bench-recipes keeps 221 of 240 ids, 19 near
duplicates (metric 7, sector 10, flip 8 dropped in all) replaced by later draws, mix 79/79/3/79 unchanged, verdicts
DECLINE/INVEST/INCONCLUSIVE 155/79/6 (were 152/79/9); marks-defaults keeps 86 of 150 ids, mix metric/flip/isolate
14/21/115 (were 62/27/61: metric has 6 one-point buckets of the spread per category set it reaches), verdicts
AGGRESSIVE/INCREASE_RISK/BALANCED/DEFENSIVE/RETURN_TO_BALANCED/REDUCE_RISK 53/39/24/17/12/5 (were 89/20/13/9/13/6);
neither run needs the second pass (near duplicates admitted: 0). l8-three-investors
is unchanged (its 4 sector near duplicates were surplus draws, never written; no L8 question has the "Apply" line).
Merged onto main after s52rfix (branch s53dup; /tmp script patching out the near rule, the title or both):
buffett-bench-recipes as above (neither change gives main's bc186ff2..., the title alone 023e01dd...);
l8-three-investors unchanged (5ec72473...) with either or both; marks-defaults: with neither, main's 3d7653e3...;
the title alone changes only the question (d1b4a227..., same ids in order); the near rule keeps 82 of 150 ids,
mix metric/flip/isolate 14/18/118 (were 63/25/62), verdicts AGGRESSIVE/INCREASE_RISK/BALANCED/DEFENSIVE/
RETURN_TO_BALANCED/REDUCE_RISK 49/37/27/18/13/6 (were 87/16/13/12/16/6); near duplicates admitted: 0.
Changed deliberately (issue 18 item 4, branch s53dup: near duplicates are put off, not hunted past): a recipe no
longer treats a near duplicate as a miss; it takes it as main did, counts it towards its share and writes it after
the visibly new items, rebuilt from its (recipe, attempt). Each file now holds main's items (the same ids as with the
near rule patched out) in main's order, visibly new first: buffett-bench-recipes 221 then 19 near duplicates, mix
79/79/3/79, verdicts 152/79/9 as main; marks-defaults 81 then 69, mix 63/25/62, verdicts as main (87/16/13/12/16/6);
l8-three-investors has none and is unchanged. The s52dup pins above are those of the hunting rule, which
``--no-near-duplicates`` keeps.
Changed deliberately (issue 18, branch s53rfix, s52review kind 6): a sector move whose draw broke a card rule is
drawn again on the sector's range only (it was drawn over the card's whole range and could leave the sector's:
a Lynch utility moved to software at a 4x P/E and a 5% yield). In buffett-bench-recipes one sector item's redraw
now picks among fewer values: it is dropped (healthcare, 3.5x revenue) and another sector item drawn (industrial
automation, 2x revenue, 66% gross margin); the other 239 keep id, order and bytes; ``ipb verify`` passes all 240.
marks-defaults and l8-three-investors are unchanged.
Merged (s53dup with s53rfix): buffett-bench-recipes holds the same 240 ids as s53rfix's own pin (881e5633...), in
s53dup's order (visibly new first); its lines differ from s53rfix's only by s53dup's title in ``question`` and the
condition blocks that hash it. The ``--no-near-duplicates`` pin (s52dup's hunt) takes s53rfix's sector redraw too.
Changed deliberately (issue 18, branch s55review): Marks's cycle card gained "loose capital has a spread of at most
6%" (every line's card content hash, ``ipb-cards/`` source and condition-C key differ). marks-defaults dropped 5
items (2 loose at 6.5% and 7.3%, the other 3 follow from the changed draw sequence) and drew 5 others, none loose
above 6%; the 145 kept keep scenario, question and gold (3 with other operator details); mix metric/flip/isolate
63/25/62 -> 61/28/61. l8-three-investors: the same 90 items; only the card blocks differ.
Changed deliberately (issue 18, branch s56fixdsc): ``temporal`` drops a market-state input the regime gives no
figure for (as it did macro facts). l8-three-investors: the old digest b5d12f93... was reproduced from the previous
perturb/operators.py before re-pinning; its 2 temporal items had kept the base's sentiment, spreads, percentiles and
"capital loose" beside a moved regime. Now 4 temporal items, each dropping those 12 inputs; 86 of 90 ids kept (in
other positions), mix metric/sector/flip/isolate/temporal 22/22/22/22/2 -> 22/22/21/21/4. The other pins are unchanged.
Changed deliberately (issue 18, branch s57weak, s56review2's weak kind): the bubble gauge's long-run sustainable growth
starts at 0% (was -5%). l8-three-investors: the old digest 30006a16... was reproduced from the previous card before
re-pinning; every line's card content hash, ``ipb-cards/`` source and condition-C key differ; 82 of 90 items keep id,
scenario and gold; 8 differ (7 draw another sustainable growth, one of them was -3.5%, and one of the 7 two other
values; 1 another discounted growth); mix 22/22/21/21/4 unchanged. The other pins are unchanged.
Changed deliberately (issue 18 item 4, branch s58fill): the default near-duplicate mode is ``fill`` (s57era), no
longer ``defer``: a recipe hunts past near duplicates for visibly new items, keeps each aside and writes only as
many as N still needs. The old digests (5d270507... and b23f1429...) were reproduced first with
``DEFAULT_NEAR = "defer"``. buffett-bench-recipes: the 19 near duplicates defer wrote last give way to 19 visibly new
items; 221 of 240 ids kept, mix 79/79/3/79 unchanged, and the file is now byte for byte the
``--no-near-duplicates`` pin (ec99e2e2..., no recipe runs short). marks-defaults: 70 near duplicates -> 1; 80 of 150
ids kept; mix metric/flip/isolate 61/28/61 -> 15/18/117 (metric and flip run out of visibly new items and hand
their shares to isolate); verdicts AGGRESSIVE/INCREASE_RISK/BALANCED/DEFENSIVE/RETURN_TO_BALANCED/REDUCE_RISK
84/16/15/12/17/6 -> 50/39/26/17/13/5. l8-three-investors has no near duplicate and is unchanged.
Changed deliberately (issue 18, branch s58fill, s57 new user C10): a flip's (or isolate's) anchor no longer sets a
market-wide regime input to a value naming one dated episode (the first label of one regime and of no other:
pandemic_shock, depression, market_crash, bear_market); the move dropped the date and left "The macro regime is
pandemic shock." in an undated item. The old digests (ec99e2e2... and defer's 5d270507...) were reproduced first.
buffett-bench-recipes: 14 of its 79 flip items stated pandemic shock, now none (undated flips 57 -> 52, the rest by a
generic regime); 203 of 240 ids kept (37 flip items drawn again), mix 79/79/3/79 unchanged, verdicts
DECLINE/INVEST/INCONCLUSIVE 154/80/6 -> 153/81/6; the default is still byte for byte the ``--no-near-duplicates``
run (bfcf65a1...), defer 7ea4f0df.... l8-three-investors and marks-defaults are unchanged.
Changed back at the stop-58 merge: the default near-duplicate mode is ``defer`` again, not ``fill``.
``bench/perturb.py --sizes 10000 --baseline 87449cc4`` measured the merged tree with fill the default at 316.7 s of
process CPU to generate 10,000 bench items against 16.6 s: fill hunts past the near duplicates that are about half
of such a run. The RUNS pins are defer's: buffett-bench-recipes 7ea4f0df... (s58fill's defer pin with the C10
rule), marks-defaults b23f1429... and l8-three-investors d2b7af08... (both as before this stop); fill's are pinned
by ``test_fill_mode_keeps_the_s58fill_bytes`` (bfcf65a1..., byte for byte the ``--no-near-duplicates`` run, and
6933b9c0...). s58speedgen2's live-anchor draw was merged and taken out again (docs/perturbation.md says why), so
its pins are not here.
Re-pinned at stop 59 (s59cond): every item's ``conditions.B`` gains ``knowledge_sha256`` (the knowledge version of
its investors, issue 18 item 6), and nothing else changes: each of the five files, made on the base commit and on
s59cond, is byte for byte the same once that one field is taken out of the new file (/tmp/s59cond/pin.py). The
pins move 7ea4f0df -> d8da9b71, b23f1429 -> 32a04240, d2b7af08 -> b728e01e, and under fill (and
``--no-near-duplicates``) bfcf65a1 -> f02b555a, 6933b9c0 -> 4b017e31; the older pins the text above names are the
same runs without the field.
Re-pinned in s60setting (issue 18 item 5, s58user F-C14): marks_distressed_debt gained a ``question:`` block (its
setting and ask). That card is in none of these runs, but Howard Marks's registry entry lists it, so every item of
marks-defaults and l8-three-investors records another ``conditions.B.knowledge_sha256``; nothing else changes: the
three files made on the base commit and on s60setting are equal field by field but for that one
(/tmp/s60setting/cmp_items.py). The pins move 32a04240 -> 3b85dcb5, b728e01e -> d866ed61, and under fill
4b017e31 -> 8acbaf82; buffett-bench-recipes is unchanged.
Re-pinned in s60setting (s58user F-C15): marks_distressed_debt gained the constraint spread_pays_the_pull_to_par;
again only ``conditions.B.knowledge_sha256`` of marks-defaults and l8-three-investors differs (field by field against
the previous commit's files). The pins move 3b85dcb5 -> 52cb8c55, d866ed61 -> 00ff7462, and under fill
8acbaf82 -> 82569b0c; buffett-bench-recipes is unchanged.
Re-pinned in s61nfix (s60 new user N12): an item of a dated base that keeps no date records why in
``manifest.undated`` ("macro_regime moved (it describes the day)"). Each of the six files (the three runs, the two
under fill and the ``--no-near-duplicates`` one), made on the base commit and on s61nfix, is equal field by field once
that key is taken out, and every line without it is byte for byte the same (/tmp/s61pin/cmp.py): 53 of 240 lines of
buffett-bench-recipes gained it, 149 of 150 of marks-defaults, 59 of 90 of l8-three-investors, 52 and 149 under fill.
The pins move d8da9b71 -> 3bc8e769, 52cb8c55 -> 22d5010f, 00ff7462 -> 68691a6a, and under fill (and
``--no-near-duplicates``) f02b555a -> 4dec4779, 82569b0c -> 5285d88a.
Re-pinned in s61review (issue 18 bar line 2): the fixture l8_three_investors.yaml gains the deck rule
recession_means_wide_spreads_and_no_optimism (the review read a recession beside a 3.1% spread, an optimistic mood
and loose capital), and dalio_bubble_detection_gauge gains
prices_below_the_richest_fifth_do_not_discount_ten_points_above_sustainable_growth. Only l8-three-investors moves:
00ff7462 (reproduced on the base commit 061c68d2 first) -> e2e18597. 89 of its 90 ids stay in place; the one dropped,
IPB-L8-THREE-72dc4d6c38077153, is an isolate item with a recession at a 3.1% spread and an optimistic mood (the new
rule's kind), and one other item is drawn in its place. Every kept item differs only in ``manifest`` (the deck
record and the Dalio card's hash) and ``conditions`` (the card hash in C, Ray Dalio's knowledge hash in B)
(/tmp/s61review/pin.py). The other runs and the fill pins are unchanged.
Merged with main after s61nfix (both re-pins above): the merged tree's l8-three-investors file equals s61review's
e2e18597 file field by field once s61nfix's ``manifest.undated`` is taken out (90 of 90 lines; 59 gained the key),
so the pin is 68691a6a/e2e18597 -> f6c201ac.
Re-pinned in s61f6 (stop 61 review F6): the question's "not disclosed" sentence leaves out an input the stated business
model or sector ``omits:`` (frameworks/sectors.yaml) and one no gate needs given the stated facts. Made on main 85b5149e
and on s61f6 (/tmp/s61f6/pin.py, cmp.py), every changed line differs only in ``question`` (only its "not disclosed"
line) and ``conditions.B`` ``key``/``query_sha256`` (which hash the question): buffett-bench-recipes 60 of 240 lines,
l8-three-investors 12 of 90, under fill and ``--no-near-duplicates`` 56 of 240; each drops the revenue retention (and
for a bank or an insurer the gross margin) of a non-subscription business. marks-defaults (and under fill) is unchanged.
The pins move 3bc8e769 -> 2a8e0da5, f6c201ac -> 805768b3, and under fill (and ``--no-near-duplicates``)
4dec4779 -> 9dc887a8.
Re-pinned in s63cards (stop 63 review R1, R2): marks_risk_return_assessment gained two constraints and its gates 2-4
new INCONCLUSIVE elements; no pinned run uses that card, but Howard Marks's condition-B knowledge hashes every card of
his, so marks-defaults (150 of 150 lines, under fill too) and l8-three-investors (90 of 90) differ from main only in
``conditions.B.knowledge_sha256`` (checked field by field against main's files). The pins move 22d5010f -> 9e280f57,
under fill 5285d88a -> 8e87b757, and 805768b3 -> 30d14d7f.
Re-pinned in s63items (stop 63, issue 18 bar line 2): Frame.violations refuses a stated metric outside its stated
business model's own range (frameworks/sectors.yaml ``models:``, ``sectors/model_range``): every operator, not only the
sector move, keeps subscription software at a 60-90% gross margin. Made on main 16f44367 and on s63items
(/tmp/s63items/pin.py, pincmp.py): buffett-bench-recipes keeps 200 of 240 ids, each byte-identical; of the 40 dropped,
9 broke the rule (subscription software at 35-57% gross margin) and 31 were redrawn because a refused candidate moves
the stream; no new item breaks it. l8-three-investors keeps 89 of 90 in place, byte-identical; the one dropped broke
the rule. Under fill and ``--no-near-duplicates``: 199 of 240 kept identical, 10 dropped broke it. marks-defaults (and
under fill) is unchanged. The pins move 2a8e0da5 -> e246eae9, 805768b3 -> 5dce6af6, and under fill (and
``--no-near-duplicates``) 9dc887a8 -> eabdea5e.
Both stop-63 re-pins together: l8-three-investors is s63items's file with s63cards's condition-B knowledge hashes
(30d14d7f and 5dce6af6 combined -> 8a9aab76; checked field by field: it differs from
s63items's file only in ``conditions.B.knowledge_sha256``, 90 of 90, and agrees byte for byte with s63cards's file on the 89 items both hold).
Stop 63 reverted the rule before its stop ended; s64range put it back (with the shortcuts oracles mended): the
pins above are s63's re-pins again, unchanged, since nothing between the revert and s64range moved these runs.

Stop 64 (s64review, s63 review R12): Marks's distressed-debt card states its sector as "The issuer is in the
{value} sector." (a ``phrase:``), and Howard Marks's condition-B knowledge hashes every Marks card: marks-defaults
(and under fill) and l8-three-investors differ from the old files only in ``conditions.B.knowledge_sha256`` (150/150,
150/150, 90/90 lines, compared field by field).
Both stop-64 re-pins together (the merge): l8-three-investors is s64range's file (8a9aab76) with s64review's
condition-B knowledge hashes -> d0ffd066 (checked field by field: only ``conditions.B.knowledge_sha256`` differs, 90 of
90); buffett-bench-recipes and its fill run are s64range's, marks-defaults and its fill run s64review's.

Re-pinned in s65sector (stop 65, issue 18): Frame.violations refuses a stated metric outside its stated sector's own
range too (frameworks/sectors.yaml ``sectors:`` ``ranges:``, ``sectors/sector_range``, with the model-range rule's
base exemption): every operator, not only the sector move. Made on main 703cd00f and on s65sector
(/tmp/s65sector/mkpins.py, cmp.py), compared by id, field by field: buffett-bench-recipes keeps 187 of 240 ids, 186
byte-identical and one differing only in ``manifest.attempt``; of the 53 dropped, 37 break the new rule (this
ipb's ``ipb verify`` of main's file reports exactly those 37, all ``sectors/sector_range``: e.g. enterprise software
at 67% gross margin, 76% or 128% retention) and 16 flips were redrawn because a refused candidate or anchor moves the
stream; the 53 new items verify clean. l8-three-investors keeps 86 of 90 byte-identical; the 4 dropped are the 4 that
break the rule. Under fill and ``--no-near-duplicates`` (one file): 188 identical, 1 differs in ``manifest.attempt``
only, 51 dropped (33 break the rule). marks-defaults (and under fill) is unchanged. The pins move e246eae9 ->
6d124088, d0ffd066 -> da3a5e52, and under fill (and ``--no-near-duplicates``) eabdea5e -> bdda5141.
Stop 65 (s65review, the s63 review's findings left): Warren Buffett's share-repurchase card (R4: the issuer's and the
reserve's sentences) and Howard Marks's risk-return card (the price gate's INCONCLUSIVE element) changed, and each investor's condition-B knowledge hashes every card of his. No pinned run uses either card:
made on the base commit 703cd00f and on s65review (/tmp/s65r/pin.py, cmp.py), every file keeps its ids in order and
differs only in ``conditions.B.knowledge_sha256`` (buffett-bench-recipes 240/240, marks-defaults 150/150,
l8-three-investors 90/90, under fill 240/240 and 150/150, ``--no-near-duplicates`` 240/240). The pins move
e246eae9 -> fe6ef612, 864b31ca -> b2cb2278, d0ffd066 -> a97f07c7, and under fill (and ``--no-near-duplicates``)
eabdea5e -> 1aae27b6, 92ce4f79 -> 73781da2 (re-made after the R1 rule was taken out again, same comparison).

Both stop-65 re-pins together (the merge of s65sector and s65review): s65sector's items with s65review's condition-B
knowledge hashes. Made on the merged tree and compared with s65sector's files by id, field by field: every file keeps
its ids in order and differs only in ``conditions.B.knowledge_sha256`` (buffett-bench-recipes 240/240,
l8-three-investors 90/90, under fill 240/240; marks-defaults and its fill run are s65review's, byte-identical). The
pins: buffett-bench-recipes 5da4c571, l8-three-investors 6912e531, under fill (and ``--no-near-duplicates``) 91a4d3e9,
marks-defaults b2cb2278, under fill 73781da2.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

import ipb.perturb.generation as gen
from ipb.perturb import Job, parse_recipes
from ipb.perturb.generation import write_items
from perturb_support import BUFFETT, BUFFETT_BASE, FIXTURES, SCENARIOS

MARKS = "marks_market_cycle_positioning"
RUNS = {
    # name: (cards, base, seed, ops ("" = the card's defaults), n, sha256 of the file)
    "buffett-bench-recipes": ((BUFFETT,), BUFFETT_BASE, 0, "metric,sector,temporal,flip", 240,
                              "5da4c5719370b59ab92698ba26ca046d2bc85c031244e0df9f1ad3115ed60d27"),
    "marks-defaults": ((MARKS,), SCENARIOS / MARKS / "cold_aggressive_2008.yaml", 1, "", 150,
                       "b2cb22789b786a028c3438b5a03b0cb6aa160effbdeea35a4c0d95bf31819d8b"),
    "l8-three-investors": ((BUFFETT, MARKS, "dalio_bubble_detection_gauge"), FIXTURES / "l8_three_investors.yaml",
                           7, "", 90, "6912e531c96d7d7c50d8e89e4b227d953e05dc3ad507b294e0b541e55410c008"),
}


def _job(cards, base, seed, ops):
    return Job(cards, str(base), seed, parse_recipes(ops) if ops else ())


@pytest.mark.parametrize("name", sorted(RUNS))
def test_item_file_bytes_are_pinned(tmp_path, name):
    cards, base, seed, ops, n, digest = RUNS[name]
    out = tmp_path / "items.jsonl"
    write_items(out, _job(cards, base, seed, ops), n)
    assert hashlib.sha256(out.read_bytes()).hexdigest() == digest


def test_pinned_bytes_in_two_worker_processes(tmp_path, monkeypatch):
    cards, base, seed, ops, n, digest = RUNS["buffett-bench-recipes"]
    monkeypatch.setattr(gen, "POOL_MIN", 0)  # worker processes even for a small run
    out = tmp_path / "items.jsonl"
    write_items(out, _job(cards, base, seed, ops), n, workers=2)
    assert hashlib.sha256(out.read_bytes()).hexdigest() == digest


def test_fill_mode_keeps_the_s58fill_bytes(tmp_path):
    # --near-duplicates fill, the default s58fill chose and the stop-58 merge put back to defer (fill took 19 times
    # defer's CPU at 10,000 bench items): s58fill's pins of these runs under fill
    for name, digest in (("buffett-bench-recipes", "91a4d3e9f5852135b9af173a79d65e9df3a9f7a95880f1187705a3ace7d48b6f"),
                         ("marks-defaults", "73781da27f60ed564245c6fd094f41c8a34087508e50436d136572ff70eced25")):
        cards, base, seed, ops, n, _ = RUNS[name]
        out = tmp_path / f"{name}.jsonl"
        write_items(out, replace(_job(cards, base, seed, ops), near="fill"), n)
        assert hashlib.sha256(out.read_bytes()).hexdigest() == digest, name


def test_strict_near_rule_keeps_the_s52dup_bytes(tmp_path):
    # --no-near-duplicates hunts past near duplicates as s52dup's default did: its buffett-bench-recipes pin
    cards, base, seed, ops, n, _ = RUNS["buffett-bench-recipes"]
    out = tmp_path / "items.jsonl"
    write_items(out, replace(_job(cards, base, seed, ops), strict_near=True), n)
    assert hashlib.sha256(out.read_bytes()).hexdigest() == \
        "91a4d3e9f5852135b9af173a79d65e9df3a9f7a95880f1187705a3ace7d48b6f"
