/*  Medication screening for older patients.

    A small rule base in the style of potentially-inappropriate-medication (PIM)
    criteria: some substances are flagged from a given age, some pairs interact.
    The clinical content is illustrative only.
*/

:- use_module(library(lists)).

% pim(Substance, MinAge, Reason): Substance is potentially inappropriate from MinAge on.
pim(diazepam, 65, "Long-acting benzodiazepine: risk of falls and fractures.").
pim(amitriptyline, 65, "Strongly anticholinergic tricyclic antidepressant.").
pim(glibenclamide, 65, "Long-acting sulfonylurea: risk of prolonged hypoglycaemia.").
pim(indometacin, 65, "NSAID with the highest risk of central nervous side effects.").
pim(doxylamine, 75, "First-generation antihistamine: anticholinergic, sedating.").

% interaction(A, B, Severity): a pair that should not be combined.
interaction(warfarin, ibuprofen, major).
interaction(warfarin, aspirin, major).
interaction(simvastatin, clarithromycin, contraindicated).
interaction(diazepam, oxycodone, major).

% class(Substance, Class).
class(diazepam, benzodiazepine).
class(amitriptyline, antidepressant).
class(glibenclamide, antidiabetic).
class(indometacin, nsaid).
class(ibuprofen, nsaid).
class(doxylamine, antihistamine).
class(warfarin, anticoagulant).
class(aspirin, antiplatelet).
class(simvastatin, statin).
class(clarithromycin, antibiotic).
class(oxycodone, opioid).

%! pim_check(+Age:int, +Drugs:list(atom), -Substance:atom, -Reason:string) is nondet.
%
%  Screens a patient's medication list: one solution per substance that is
%  potentially inappropriate at the patient's age.
%
%  @arg Age       Age in completed years.
%  @arg Drugs     The substances the patient takes.
%  @arg Substance A substance the screening flagged.
%  @arg Reason    Why it was flagged.
pim_check(Age, Drugs, Substance, Reason) :-
    member(Substance, Drugs),
    pim(Substance, MinAge, Reason),
    Age >= MinAge.

%! is_pim(+Age:int, +Drug:atom) is semidet.
%
%  True if Drug is potentially inappropriate at Age.
%
%  @arg Age  Age in completed years.
%  @arg Drug The substance.
is_pim(Age, Drug) :-
    pim(Drug, MinAge, _),
    Age >= MinAge.

%! get_interaction(+First:atom, +Second:atom, -Severity:atom) is semidet.
%
%  The severity of the interaction between two substances, in either order;
%  null when they are not known to interact.
%
%  @arg First    One substance.
%  @arg Second   The other substance.
%  @arg Severity `major` or `contraindicated`.
get_interaction(A, B, Severity) :-
    (   interaction(A, B, Severity)
    ->  true
    ;   interaction(B, A, Severity)
    ).

%! drug_class(+Drug:atom, -Class:atom) is det.
%
%  The pharmacological class of a substance. Unknown substances are an error.
%
%  @arg Drug  The substance.
%  @arg Class Its class.
drug_class(Drug, Class) :-
    class(Drug, Class).

%! screening_summary(+Age:int, +Drugs:list(atom), -Flagged:list(atom), -Interactions:int) is det.
%
%  Everything a pharmacist looks at first: the flagged substances, sorted, and
%  how many interacting pairs the list contains.
%
%  @arg Age          Age in completed years.
%  @arg Drugs        The substances the patient takes.
%  @arg Flagged      Substances flagged for the age, sorted, without duplicates.
%  @arg Interactions Number of interacting pairs.
screening_summary(Age, Drugs, Flagged, Interactions) :-
    findall(S, pim_check(Age, Drugs, S, _), Fs),
    sort(Fs, Flagged),
    findall(A-B, (member(A, Drugs), member(B, Drugs), A @< B,
                  once(get_interaction(A, B, _))), Pairs),
    length(Pairs, Interactions).

%! ready is semidet.
%
%  True when the criteria are loaded.
ready :-
    pim(_, _, _),
    !.
