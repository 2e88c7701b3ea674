"""The catalog of every «Схватка» card and hero, and the rules page (pure Python HTML)."""

from __future__ import annotations

from html import escape

from .rumble_views import art, cards

DECKS = {
    "spells": "Компоненты",
    "treasures": "Сокровища",
    "ghosts": "Призрачные карты",
    "diseases": "ЗПМП",
    "specials": "Особые",
    "heroes": "Герои",
}
SLOTS = {
    "source": "Заводилы",
    "quality": "Навороты",
    "delivery": "Приходы",
    "wild": "Шальная магия",
}


def catalog(deck: str = "", school: str = "") -> str:
    """Every card and hero with its illustration and text, filterable by type and school."""
    entries = list(cards().values())
    schools = sorted({(e["school"], e["school_name"]) for e in entries if e.get("school")})
    deck_buttons = "".join(
        _filter("deck", key, label, key == deck) for key, label in [("", "Все"), *DECKS.items()]
    )
    school_buttons = "".join(
        _filter("school", key, label, key == school) for key, label in [("", "Все школы"), *schools]
    )
    shown = [
        e
        for e in entries
        if (not deck or e["deck"] == deck) and (not school or e.get("school") == school)
    ]
    items = "".join(_entry(e) for e in shown)
    return (
        "<h2>Каталог «Схватки»</h2>"
        f'<div class="filters" role="group" aria-label="Тип">{deck_buttons}</div>'
        f'<div class="filters" role="group" aria-label="Школа">{school_buttons}</div>'
        f'<p class="muted">Карт в выборке: {len(shown)}</p>'
        f'<ul id="catalog" class="catalog">{items}</ul>'
    )


def _filter(kind: str, key: str, label: str, active: bool) -> str:
    return (
        f'<button type="button" data-action="catalog-filter" data-kind="{kind}"'
        f' data-key="{escape(key)}" aria-pressed="{str(active).lower()}">{escape(label)}</button>'
    )


def _entry(entry: dict[str, object]) -> str:
    facts = [DECKS.get(str(entry["deck"]), str(entry["deck"]))]
    if entry.get("slot"):
        facts.append(SLOTS.get(str(entry["slot"]), str(entry["slot"])))
    if entry.get("school_name"):
        facts.append(str(entry["school_name"]))
    if entry.get("initiative") is not None:
        facts.append(f"инициатива {entry['initiative']}")
    if entry.get("creature"):
        facts.append("тварь")
    facts.append(f"×{entry['count']}")
    return (
        f'<li class="catalog-card" data-deck="{escape(str(entry["deck"]))}">'
        f'<img src="{art(str(entry["id"]))}" alt="" loading="lazy">'
        f"<div><b>{escape(str(entry['name']))}</b>"
        f'<p class="muted small">{escape(" · ".join(facts))}</p>'
        f"<p>{escape(str(entry['text']))}</p></div></li>"
    )


RULES = """
<h2>Правила «Схватки»</h2>
<p>Каждый игрок — боевой маг. Схватка идёт, пока в живых не останется один маг (или никого).
Турнир — три схватки; медали дают за убийства и за выживание, побеждает тот, у кого медалей
больше, а при равенстве побеждают все лидеры. В режиме «До двух побед» схватки идут, пока
кто-то не выживет дважды.</p>
<h3>Раунд</h3>
<ol>
<li>Все живые маги добирают руку до 8 карт.</li>
<li><b>Сборка.</b> Под таймером каждый тайно запечатывает заклинание из 1–3 карт: не больше
одного заводилы, одного наворота и одного прихода. Шальная магия закрывает любое пустое место.
Соперники видят только число карт и место в очереди. Если таймер кончился, система кладёт за
мага одну карту (по возможности приход).</li>
<li><b>Очередь.</b> Первыми колдуют заклинания из меньшего числа карт; при равенстве — с большей
инициативой прихода (шальная магия в приходе и заклинание без прихода — инициатива 0), дальше
решает бросок. Точная инициатива видна, когда заклинание раскрыто.</li>
<li><b>Колдовство.</b> Заклинание раскрывается и звучит целиком: наворот, приход, заводила —
«Искрящийся Громовой Разряд от Лорда Искр». Карты действуют в порядке заводила → наворот →
приход. Шальная магия при раскрытии заменяется первой подходящей картой с верха колоды.</li>
</ol>
<h3>Могучий бросок</h3>
<p>Сначала выбирается цель, потом бросаются кубики: по одному d6 за каждый знак нужной школы на
картах вашего заклинания, открытых тварях, ЗПМП, призрачном знаке и знаковых сокровищах.
Заводила с усилением и сокровище силы прибавляют к сумме по +1. Итог 1–4, 5–9 или 10+
выбирает эффект карты.</p>
<h3>Цели</h3>
<p>Левый и правый враг — ближайший живой сосед в эту сторону. Среди равных самых хилых или самых
живучих выбираете вы. Случайная жертва определяется броском d6 между живыми врагами, лишние
значения перебрасываются.</p>
<h3>Твари, сокровища, Хоромы, ЗПМП</h3>
<p>Тварь с броском 5+ остаётся открытой, даёт знак и атакует снова в ваш следующий ход. Когда в вас
летит удар врага, вы видите его размер и можете сбросить открытую тварь, чтобы поглотить его
целиком; Чешуйчатый плащ уменьшает каждый вражеский удар на 1 ещё до этого вопроса. Активные
сокровища используются раз за ход, оплата — сброс карт с руки. Хозяин Хоромов защищён от чужого
заражения; убийца хозяина забирает Хоромы. Жетоны ЗПМП тянут вслепую; вечные болезни переживают
смерть и новую схватку.</p>
<h3>Смерть и медали</h3>
<p>Погибший маг теряет руку, тварей, обычные сокровища и болезни и сразу тянет призрачную карту, а
потом — в начале каждого раунда. Медаль за убийство получает тот, чей эффект убил (за себя —
нет; смерть от текста болезни медали не даёт). Медаль выжившего — последнему живому, даже если он
погиб вместе с последним врагом от собственного заклинания. Нежданчик в запечатанном, но ещё не
применённом заклинании отменяет смерть, если у мага есть хотя бы одна ЗПМП.</p>
<h3>Честная игра</h3>
<p>Никакой сервер и никакой ведущий не видит чужих карт: колода тасуется всеми игроками вместе
(криптографически), заклинания запечатываются обязательствами, кубики бросаются совместной
случайностью, а в конце партии каждый браузер проверяет, что никто не жульничал.</p>
"""


def rules() -> str:
    """The rules page (our own summary of the game's rules, in Russian)."""
    return RULES
