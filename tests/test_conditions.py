"""Questions in people's own words (issue #62): the question read once, typed (answer/question.py:
the user's situation, the question proper, the names that are the user's own); the check never
asks the documents for the user's own words and takes no namesake for the subject (check.py,
binding.py); a yes or no about a rule says the rule's condition (conditions.py), unless the
user's situation already settles it; the rule's yes or no read again from its own sentence and
the situation (rule_check.py); "Is there a time limit …?" asks for the limit. Guidance-like pages written for these tests: a made-up council's
benefit page, a visa page and an employment-leave page; a scripted model only where a read again
is under test."""

from __future__ import annotations

from edgerag.answer.binding import Standing, about, names_in, namesake
from edgerag.answer.check import check_answer, unnamed
from edgerag.answer.conditions import rule_condition, rule_sentence, settled, with_condition
from edgerag.answer.question import read_question
from edgerag.llm.local import Completion

from .helpers import passage

BENEFIT = passage(
    "b1",
    "Hollinsfield Council: Warm Homes Grant",
    "Warm Homes Grant\n\nThe Warm Homes Grant pays £450 towards new loft insulation. "
    "You can get the Warm Homes Grant if you own your home and have lived in it for at least 12 months. "
    "You cannot get the grant if you rent from a housing association. "
    "You must apply within 6 months of the insulation being fitted.",
)
VISA = passage(
    "v1",
    "Seasonal Worker visa: eligibility",
    "Seasonal Worker visa\n\nTo apply you must:\n\n"
    "- be 18 or over\n\n- have a job offer from an approved farm\n\n- have £1,270 in savings\n\n"
    "You cannot extend a Seasonal Worker visa unless you are a poultry worker.",
)
LEAVE = passage(
    "l1",
    "Bereavement leave",
    "Employees are entitled to 2 weeks of parental bereavement leave. "
    "Parental bereavement leave must be taken within 56 weeks of the child's death. "
    "You get Statutory Parental Bereavement Pay only if you have worked for your employer for 26 weeks.",
)
PAGES = [BENEFIT, VISA, LEAVE]


def done(reply: str) -> Completion:
    """A scripted read again's completion."""
    return Completion(reply, 10, 10, 2, 0.01, "stop")


def test_a_typed_question_splits_the_users_situation_from_the_question_proper():
    q = read_question(
        "My father died in March and I work for Brightwater Foods in Leeds. I have been there eight months. "
        "Unfortunately my manager is away. Can I take parental bereavement leave?"
    )
    assert q.asked == "Can I take parental bereavement leave?"
    assert len(q.situation) == 3 and q.situated
    assert q.kind == "yes-no" and q.options == ("yes", "no") and q.rule
    assert q.names == ()  # nothing of the question proper is a name the documents must hold
    assert "Leeds" in q.own and "Brightwater Foods" in q.own
    assert not any("Unfortunately" in n for n in q.names)


def test_a_clause_about_the_user_around_the_question_joins_the_situation():
    q = read_question("If I give my permission to the charity, are they eligible to claim Gift Aid?")
    assert q.asked == "Are they eligible to claim Gift Aid?"
    assert q.situation == ("If I give my permission to the charity",)
    assert q.names == ("Gift Aid",) and q.kind == "yes-no"
    held = read_question("Can I claim the Warm Homes Grant if my landlord in Hollinsfield agrees?")
    assert held.asked == "Can I claim the Warm Homes Grant?" and held.names == ("Warm Homes Grant",)
    assert "Hollinsfield" in held.own
    opened = read_question("As I am under nineteen am I allowed to apply for a Seasonal Worker visa?")  # no comma sets it apart
    assert opened.asked == "Am I allowed to apply for a Seasonal Worker visa?" and opened.kind == "yes-no"
    assert opened.situation == ("As I am under nineteen",)


def test_a_plain_question_reads_as_it_did():
    q = read_question("Which film came out first, Alpha Dawn or Beta Night?")
    assert q.asked == q.read_as == q.core == "Which film came out first, Alpha Dawn or Beta Night?"
    assert q.options == ("Alpha Dawn", "Beta Night") and not q.situated and not q.rule
    assert read_question("Am I eligible for the Warm Homes Grant?").kind == "yes-no"
    titled = read_question("Was Prof. Catherine Doyle present at the board meeting of 18 March 2025?")  # "Prof." ends no sentence
    assert titled.asked == titled.text and titled.kind == "yes-no" and "Catherine Doyle" in titled.names
    led = read_question("After the merger with Brightwater Foods, who chaired the board?")  # a clause of the question, not the user's
    assert led.asked == led.text and "Brightwater Foods" in led.names and not led.situated


def test_is_there_a_limit_asks_for_the_limit():
    q = read_question("I had my loft insulated last spring. Is there a time limit to apply for the Warm Homes Grant?")
    assert q.limit == "time limit"
    assert q.read_as == "What is the time limit to apply for the Warm Homes Grant?"
    assert q.kind == "number" and q.options is None
    asked = []

    def reread(options):
        asked.append(options)
        return done("6 months")

    checked = check_answer("Yes, there is a time limit", "Yes, there is a time limit", q, [BENEFIT], reread=reread)
    assert not checked.abstained and checked.short == "6 months" and checked.step == "kind"
    assert asked and "6 months" in asked[0]


def test_the_check_never_asks_the_documents_for_the_users_own_words():
    q = read_question(
        "I live in Hollinsfield Road, Thornbury, and I'm a retired nurse. I bought my house in May 2019. Can I get the Warm Homes Grant?"
    )
    checked = check_answer("yes", "yes", q, [BENEFIT])
    assert not checked.abstained and checked.short == "yes"
    span = read_question("I work for Brightwater Foods in Leeds and my son died in March. How long is parental bereavement leave?")
    checked = check_answer("2 weeks", "2 weeks", span, [LEAVE])
    assert not checked.abstained and checked.short == "2 weeks"
    assert unnamed(span, [LEAVE]) is None  # a long answer is not refused for "Leeds" either
    asked_of_unread = read_question("I live in Leeds. Can I get the Hardship Fund?")  # the thing asked about, not the user's
    assert unnamed(asked_of_unread, [BENEFIT]) is not None


def test_a_yes_no_answered_in_the_wrong_form_is_read_again():
    q = read_question("I rent my flat. Can I get the Warm Homes Grant?")

    def reread(options):
        assert options == ["yes", "no"]
        return done("no")

    checked = check_answer("[1] Warm Homes Grant", "[1] Warm Homes Grant", q, [BENEFIT], reread=reread)
    assert checked.short == "no" and checked.step == "form" and not checked.abstained
    dropped = check_answer("[1] Warm Homes Grant", "[1] Warm Homes Grant", q, [BENEFIT], reread=None)
    assert dropped.abstained and dropped.step == "form"


def test_a_namesake_is_not_the_subject():
    assert not names_in("John Henry Smith", "John Smith joined the farm in 2020. Smith left in 2022.")
    assert names_in("John Henry Smith", "John Henry Smith joined the farm. Smith left in 2022.")
    assert names_in("Alfred Gell", "Alfred Antony Francis Gell wrote it.")
    son = passage(
        "s1",
        "Peter Alan Marsh",
        "Peter Alan Marsh is a farmer. The second son of Sir Alan Peter Marsh, Peter Alan Marsh studied at Harrow.",
    )
    sentence = "The second son of Sir Alan Peter Marsh, Peter Alan Marsh studied at Harrow."
    assert namesake("Alan Peter Marsh", sentence)
    assert not about(Standing(son, sentence), "Where did Alan Peter Marsh study?", [son])
    assert about(Standing(son, sentence), "Where did Peter Alan Marsh study?", [son])  # his own passage


def test_a_yes_about_a_rule_says_its_condition():
    q = read_question("I have owned my house in Thornbury for two years. Can I get the Warm Homes Grant?")
    cond = rule_condition(q, [BENEFIT])
    assert cond is not None and cond.grants
    assert cond.clause.startswith("you own your home and have lived in it for at least 12 months")
    assert with_condition("yes", cond, 1) == f"Yes, if {cond.clause} [1]"
    assert with_condition("no", cond, 1).startswith("No, unless you own your home")


def test_an_exception_and_a_list_of_requirements_are_conditions_too():
    extend = rule_condition(read_question("I came on a Seasonal Worker visa. Can I extend a Seasonal Worker visa?"), [VISA])
    assert extend is not None and extend.grants and extend.clause.startswith("you are a poultry worker")
    assert with_condition("no", extend, 1).startswith("No, unless you are a poultry worker")
    apply = rule_condition(read_question("I am 19. Can I apply for a Seasonal Worker visa, as my cousin did?"), [VISA])
    assert apply is not None and "be 18 or over" in apply.clause and "approved farm" in apply.clause
    pay = rule_condition(read_question("My daughter died last year. Will I get Statutory Parental Bereavement Pay?"), [LEAVE])
    assert pay is not None and pay.clause.startswith("you have worked for your employer for 26 weeks")


def test_a_when_about_a_rule_may_be_answered_with_the_rules_time():
    from edgerag.answer.kinds import fits

    assert fits("every year", "date") and fits("within 3 months of the decision", "date")
    assert fits("when amounts fall due", "date") and fits("Upon delivery of the goods", "date")  # the event a time waits for
    assert not fits("Ashford", "date") and not fits("the supplier", "date")
    q = read_question("We run a small ferry. When must we repeat the risk assessment?")
    page = passage("r1", "Risk assessments on ships", "You must repeat the risk assessment every year and whenever the work changes.")
    checked = check_answer("every year", "every year", q, [page])
    assert not checked.abstained and checked.short == "every year"


def test_a_restriction_in_a_rule_is_its_condition_not_a_no():
    notice = passage(
        "n1",
        "Giving notice",
        "Your employer can let you leave before the planned leaving date without working your notice by paying you in lieu of notice.",
    )
    q = read_question("I have handed in my notice and found a new job. Can I leave before the planned leaving date?")
    assert check_answer("yes", "yes", q, [notice]).short == "yes"  # 'without' restricts the rule, it does not deny it
    banned = passage("n2", "Giving notice", "You cannot leave before the planned leaving date if your contract says so.")
    assert check_answer("yes", "yes", q, [banned]).short == "no"  # an outright 'cannot' still says no
    cond = rule_condition(q, [banned])
    assert cond is not None and not cond.grants and with_condition("no", cond, 1) == "No, if your contract says so [1]"


def test_a_condition_the_situation_already_settles_is_not_said():
    owner = read_question("I own my home and have lived in it for three years. Can I get the Warm Homes Grant?")
    cond = rule_condition(owner, [BENEFIT])
    assert cond is not None and settled(cond, "yes", owner)
    assert with_condition("yes", cond, 1, owner) == "Yes [1]"  # the user already said they meet it
    # a situation that says only part of it, or the opposite, leaves the condition said
    renter = read_question("I have lived in my flat for three years. Can I get the Warm Homes Grant?")
    assert not settled(cond, "yes", renter)
    assert with_condition("yes", cond, 1, renter).startswith("Yes, if you own your home")
    not_owner = read_question("I do not own my home but have lived in it for years. Can I get the Warm Homes Grant?")
    assert not settled(cond, "yes", not_owner)
    # "No, unless C" where the user says C would turn the answer, not confirm it: still said
    assert not settled(cond, "no", owner) and with_condition("no", cond, 1, owner).startswith("No, unless you own your home")
    # no situation: the condition is said, as before
    bare = read_question("Can I get the Warm Homes Grant?")
    assert with_condition("yes", cond, 1, bare) == f"Yes, if {cond.clause} [1]"


class _RuleModel:
    """Stands in for the metered model: remembers the prompt and the allowed outputs."""

    def __init__(self, reply: str):
        self.reply, self.calls = reply, []

    def chat(self, messages, **kw):
        self.calls.append((messages, kw))
        return done(self.reply)


def test_the_rule_is_read_again_from_its_sentence_and_the_situation_alone():
    from edgerag.answer.rule_check import read_rule, rule_text

    q = read_question("I am 17 and have a job offer from an approved farm. Can I apply for a Seasonal Worker visa?")
    standing = rule_sentence(q, PAGES)
    assert standing is not None and standing.sentence.startswith("To apply you must")
    rule = rule_text(standing)
    assert "be 18 or over" in rule and "approved farm" in rule  # the list it leads is the rule's
    model = _RuleModel("no")
    reading, call = read_rule(model, q, standing, method="test")
    ((messages, kw),) = model.calls
    prompt = messages[-1]["content"]
    assert kw["choices"] == ["yes", "no"] and kw["max_tokens"] <= 4  # one short constrained call
    assert "Situation: I am 17" in prompt and "Question: Can I apply for a Seasonal Worker visa?" in prompt
    assert "Warm Homes" not in prompt and "bereavement" not in prompt.lower()  # only the rule's sentence is read
    assert reading.answer == "no" and call.text == "no"


def test_a_condition_that_only_repeats_the_question_is_not_said():
    page = passage("g1", "Claiming Gift Aid", "You can claim Gift Aid online if you have claimed online before and kept your records.")
    echo = passage("g2", "Claiming Gift Aid", "You can only claim Gift Aid online if you claim online.")
    q = read_question("I kept records of all donations. Can I claim Gift Aid online?")
    cond = rule_condition(q, [page])
    assert cond is not None and cond.clause.startswith("you have claimed online before and kept your records")
    assert rule_condition(q, [echo]) is None  # "if you claim online" is the question itself, no case of it


def test_a_condition_is_a_case_not_a_heading_a_wish_or_a_cut_aside():
    q = read_question("My colleague lost his licence. Can he get compensation from the register?")
    heading = passage(
        "h1",
        "Register",
        "Compensation if you stay on the register: You can get compensation from the register if your registration was wrongly refused.",
    )
    cond = rule_condition(q, [heading])
    assert cond is not None and cond.clause.startswith("your registration was wrongly refused")  # not 'you stay on the register'
    wish = passage("w1", "Redundancy", "You can get redundancy pay if you want to.")
    assert rule_condition(read_question("Can I get redundancy pay?"), [wish]) is None  # 'if you want to' is no case
    aside = passage("a1", "Gift Aid", "A charity can claim Gift Aid if it is a community amateur sports club (CASC, registered with HMRC.")
    club = rule_condition(read_question("Can a charity claim Gift Aid?"), [aside])
    assert club is not None and club.clause == "it is a community amateur sports club"


class _Choosing:
    """A scripted model that takes ``choices`` (the yes/no reads are constrained)."""

    @staticmethod
    def make(replies):
        from .helpers import ScriptedLLM

        class Choosing(ScriptedLLM):
            def complete(self, prompt, stop, max_tokens, grammar=None, on_text=None, halt=None, choices=None):
                return super().complete(prompt, stop, max_tokens, grammar, on_text, halt)

        return Choosing(replies)


def _ask(text, units, replies, path, rule_check):
    from edgerag.answer.plan import ReadPlan, build_messages
    from edgerag.answer.read import answer_question
    from edgerag.llm.metered import MeteredLLM
    from edgerag.store.tables import Tables
    from edgerag.types import Context

    plan = ReadPlan(text, "short", units, 0, 500, 0, build_messages(text, units, "short", "evidence"), 60, ["yes", "no"], None, "evidence")
    model = _Choosing.make(replies)
    path.mkdir()  # each its own LLM cache
    ans = answer_question(
        MeteredLLM(model, Tables(str(path), map_size=1 << 26)),
        text,
        Context(text, "bridge-ppr", 500, units),
        plan=plan,
        rule_check=rule_check,
    )
    return ans, model


LOAN = passage(
    "m1", "Loans for study", "Loans for study\n\nYou cannot get a Postgraduate Loan if you already have a master degree or a doctorate."
)


def test_a_yes_the_polarity_step_made_no_is_read_again_from_the_rule_for_the_user(tmp_path):
    text = "I have a degree in history and want to study again. Can I get a Postgraduate Loan?"
    off, _ = _ask(text, [LOAN, BENEFIT], ["yes"], tmp_path / "off", rule_check=False)
    assert off.short == "no" and [r["rule"] for r in off.rules if r["rule"] in ("polarity", "rule")] == ["polarity"]  # the word 'cannot'
    on, model = _ask(text, [LOAN, BENEFIT], ["yes", "yes"], tmp_path / "on", rule_check=True)
    assert model.replies == [] and on.short == "yes"  # the model read the rule for a history graduate: yes
    assert [r["rule"] for r in on.rules if r["rule"] in ("polarity", "rule")] == ["polarity", "rule"]
    assert on.text.startswith("Yes, unless you already have a master degree or a doctorate") and on.citations[0].n == 1
    agrees, model = _ask(text, [LOAN, BENEFIT], ["yes", "no"], tmp_path / "agrees", rule_check=True)
    assert model.replies == [] and agrees.short == "no"  # the model agrees: no stays


def test_a_plain_yes_about_a_rule_is_not_read_again(tmp_path):
    text = "I am 17 and have a job offer from an approved farm. Can I apply for a Seasonal Worker visa?"
    ans, model = _ask(text, [VISA, BENEFIT], ["yes", "no"], tmp_path / "visa", rule_check=True)
    assert model.replies == ["no"] and ans.short == "yes"  # one call: no step of the check turned it


def test_a_rule_question_without_a_situation_is_not_read_again(tmp_path):
    ans, model = _ask("Can I get a Postgraduate Loan?", [LOAN, BENEFIT], ["yes", "yes"], tmp_path / "bare", rule_check=True)
    assert model.replies == ["yes"] and ans.short == "no"  # one call: no situation to read the rule for


def test_if_all_of_the_following_apply_quotes_the_following():
    page = passage(
        "f1",
        "Funeral Expenses Payment",
        "Eligibility\n\nYou can get a Funeral Expenses Payment if all of the following apply:\n\n"
        "- you get certain benefits or tax credits\n\n- you meet the rules on your relationship with the deceased\n\n"
        "- you're arranging a funeral in the UK\n\nHow to claim\n\nClaim by phone.",
    )
    q = read_question("My mother died last month. Am I eligible for a Funeral Expenses Payment?")
    cond = rule_condition(q, [page])
    assert cond is not None and cond.grants
    assert cond.clause.startswith("you get certain benefits or tax credits and you meet the rules")  # not 'all of the following apply'
    # the same list joined into the sentence read (evidence lines are joined by a space)
    joined = passage(
        "f2",
        "Funeral Expenses Payment",
        "You can get a Funeral Expenses Payment if all of the following apply: you get certain benefits, you meet the rules on your relationship.",
    )
    cond = rule_condition(q, [joined])
    assert cond is not None and cond.clause.startswith("you get certain benefits, you meet the rules on your relationship")
