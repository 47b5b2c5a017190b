% Fixture: every way a documented predicate can fail to be exposed, and every
% accepted PlDoc form.

%! ok_plain(+A:int, -B:list(list(atom))) is det.
%
%  A description over
%  two lines.
%
%  Second paragraph.
%
%  @arg A First argument,
%         continued.
%  @arg B Second argument.
ok_plain(_, []).

/** ok_block(+Name:text) is semidet.
 *
 * Documented with a block comment.
 *
 * @arg Name Who.
 */
ok_block(_).

%! ok_zero is det.
ok_zero.

%! ok_undeclared(-X:boolean)
ok_undeclared(true).

% An ordinary comment may sit between the block and the clause.
%! ok_gap(+X:number) is nondet.

% (a blank line and this comment are allowed)
ok_gap(_).

%! bad_query_mode(?X:int) is det.
bad_query_mode(_).

%! bad_at_mode(@X:int) is det.
bad_at_mode(_).

%! bad_no_mode(X:int) is det.
bad_no_mode(_).

%! bad_compound(+X:compound) is det.
bad_compound(_).

%! bad_stream(+S:stream) is det.
bad_stream(_).

%! bad_custom(+X:patient) is det.
bad_custom(_).

%! bad_nested(+X:list(stream)) is det.
bad_nested(_).

%! bad_no_type(+X) is det.
bad_no_type(_).

%! bad_arity(+X:int, -Y:int) is det.
bad_arity(_).

%! bad_followed(+X:int) is det.
something_else(_).
bad_followed(_).

%! ok_before_clause(+X:int) is det.
ok_before_clause(_).

% docs on a later clause do not count
bad_later_first(1).
%! bad_later_first(+X:int) is det.
bad_later_first(2).

%! clash(+X:int) is det.
clash(_).

%! clash(+X:int, +Y:int) is det.
clash(_, _).

%! 'bad name'(+X:int) is det.
'bad name'(_).

%! health is det.
health.

%! bad_det(+X:int) is sometimes.
bad_det(_).

%! bad_syntax(+X:int is det.
bad_syntax(_).

%! bad_directive(+X:int) is det.
:- dynamic(bad_directive/1).

undocumented(1).

%! bad_at_end(+X:int) is det.
