"""Every game's card catalog (with illustrations) and rules pages (pure Python HTML)."""

from __future__ import annotations

from html import escape
from typing import Any

from .i18n import current, picture, say

GAMES = {"rumble": "«Схватка»", "circle": "«Волшебный круг»", "nevermore": "«Невермор»"}
DECKS = {
    "spells": "Компоненты",
    "treasures": "Сокровища",
    "ghosts": "Призрачные карты",
    "diseases": "ЗПМП",
    "specials": "Особые",
    "heroes": "Герои",
    "actions": "Действия",
    "main": "Основная колода",
    "light": "Светлая магия",
    "shadow": "Тёмная магия",
}
SLOTS = {
    "source": "Заводилы",
    "quality": "Навороты",
    "delivery": "Приходы",
    "wild": "Шальная магия",
}


GAMES_EN = {"rumble": "«Rumble»", "circle": "«Magic Circle»", "nevermore": "«Nevermore»"}
DECKS_EN = {
    "spells": "Components",
    "treasures": "Treasures",
    "ghosts": "Ghost cards",
    "diseases": "Diseases",
    "specials": "Specials",
    "heroes": "Heroes",
    "actions": "Actions",
    "main": "Main deck",
    "light": "Light magic",
    "shadow": "Shadow magic",
}
SLOTS_EN = {"source": "Sources", "quality": "Qualities", "delivery": "Deliveries", "wild": "Wild"}
CREDIT = (
    'Картинки карт собраны из значков <a href="https://game-icons.net">game-icons.net</a>'
    " (Lorc, Delapouite и другие авторы), лицензия"
    ' <a href="https://creativecommons.org/licenses/by/3.0/">CC BY 3.0</a>.'
)
CREDIT_EN = (
    'Card pictures are composed from <a href="https://game-icons.net">game-icons.net</a> icons'
    " (Lorc, Delapouite and other authors), licensed"
    ' <a href="https://creativecommons.org/licenses/by/3.0/">CC BY 3.0</a>.'
)


def _labels() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    english = current() == "en"
    return (GAMES_EN, DECKS_EN, SLOTS_EN) if english else (GAMES, DECKS, SLOTS)


def entries(game: str) -> list[dict[str, Any]]:
    """Catalog entries of ``game`` (``engine.catalog``), each with its art's URL in the site
    (names and texts in English where known when the page is in English)."""
    from engine.catalog import entries_for

    from .catalog_en import english

    result = []
    for entry in entries_for(game):
        if current() == "en":
            entry = english(game, entry)
        art = str(entry.get("art", ""))
        url = picture(f"/art/{game}/{art.rsplit('/', 1)[-1]}") if art else ""
        result.append({**entry, "url": url})
    return result


def catalog(game: str = "rumble", deck: str = "", school: str = "") -> str:
    """Every card of one game with its illustration and text, filterable by deck (and school)."""
    game = game if game in GAMES else "rumble"
    games, decks_of, _ = _labels()
    every = entries(game)
    decks = sorted({e["deck"] for e in every}, key=lambda d: list(DECKS).index(d))
    schools = sorted({(e["school"], e["school_name"]) for e in every if e.get("school")})
    game_buttons = "".join(_filter("game", key, label, key == game) for key, label in games.items())
    deck_buttons = "".join(
        _filter("deck", key, label, key == deck)
        for key, label in [("", say("Все", "All")), *((d, decks_of[d]) for d in decks)]
    )
    school_buttons = "".join(
        _filter("school", key, label, key == school)
        for key, label in [("", say("Все школы", "All schools")), *schools]
    )
    shown = [
        e
        for e in every
        if (not deck or e["deck"] == deck) and (not school or e.get("school") == school)
    ]
    items = "".join(_entry(e) for e in shown)
    schools_row = (
        f'<div class="filters" role="group" aria-label="{say("Школа", "School")}">'
        f"{school_buttons}</div>"
        if schools
        else ""
    )
    return (
        f"<h2>{say('Каталог', 'Catalog of')} {escape(games[game])}</h2>"
        f'<div class="filters" role="group" aria-label="{say("Игра", "Game")}">{game_buttons}</div>'
        f'<div class="filters" role="group" aria-label="{say("Тип", "Kind")}">{deck_buttons}</div>'
        f"{schools_row}"
        f'<p class="muted">{say("Карт в выборке", "Cards shown")}: {len(shown)}'
        f" ({say('копий', 'copies')}: {sum(int(e['count']) for e in shown)})</p>"
        f'<ul id="catalog" class="catalog">{items}</ul>'
        f'<p id="credit" class="muted small">{say(CREDIT, CREDIT_EN)}</p>'
    )


def _filter(kind: str, key: str, label: str, active: bool) -> str:
    return (
        f'<button type="button" data-action="catalog-filter" data-kind="{kind}"'
        f' data-key="{escape(key)}" aria-pressed="{str(active).lower()}">{escape(label)}</button>'
    )


def _entry(entry: dict[str, object]) -> str:
    _, decks, slots = _labels()
    facts = [decks.get(str(entry["deck"]), str(entry["deck"]))]
    if entry.get("slot"):
        facts.append(slots.get(str(entry["slot"]), str(entry["slot"])))
    if entry.get("school_name"):
        facts.append(str(entry["school_name"]))
    if entry.get("initiative") is not None:
        facts.append(f"{say('инициатива', 'initiative')} {entry['initiative']}")
    if entry.get("creature"):
        facts.append(say("тварь", "creature"))
    if entry.get("direction"):
        facts.append(str(entry["direction"]))
    facts.append(f"×{entry['count']}")
    return (
        f'<li class="catalog-card" data-deck="{escape(str(entry["deck"]))}">'
        f'<img src="{escape(str(entry["url"]))}" alt="" loading="lazy">'
        f"<div><b>{escape(str(entry['name']))}</b>"
        f'<p class="muted small">{escape(" · ".join(facts))}</p>'
        f"<p>{escape(str(entry['text']))}</p></div></li>"
    )


RUMBLE_RULES = """
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


CIRCLE_RULES = """
<h2>Правила «Волшебного круга»</h2>
<p>Игра на выживание для 3–8 магов. У каждого 5 жизней и 5 карт действий на руке (не больше 6).
Колода заклинаний открыта всем, колода действий — закрытая: карты в руке видит только хозяин.</p>
<h3>Ход</h3>
<ol>
<li><b>Начало хода.</b> Срабатывают эффекты начала хода (например, ожоги). Из круга вылетает
верхнее заклинание — в того, у кого тотем. Первым тотем получает создатель комнаты.</li>
<li><b>Переполох.</b> Любой живой маг в любой момент может сыграть действие с руки — даже если
заклинание летит не в него. ВЕТЕР влево и ВЕТЕР вправо сдувают заклинание на соседа его цели,
ВЕТЕР во все стороны — на любого живого мага, РАССЕИВАНИЕ отправляет заклинание в сброс, никого
не задев. Если за время отсчёта (настройка комнаты) никто ничего не сыграл, заклинание попадает
в свою цель: она теряет жизни по силе заклинания, затем срабатывает его ключевое слово.</li>
<li><b>Конец хода.</b> Эффекты конца хода; тотем переходит к следующему живому магу слева.
Если за ход сыграли хоть одно действие, каждый, у кого меньше 5 карт, берёт 2, а у кого ровно
5 — одну. Если действий не было, никто не берёт. Если ни у кого нет ни одной карты, все берут
по 3. Кончилась колода действий — сброс перемешивается в новую.</li>
</ol>
<h3>Ключевые слова</h3>
<p>У каждого заклинания — сила и ключевое слово с пояснением на карте. Например, ОГОНЬ
с РАЗДУВАНИЕМ становится сильнее на 1 при каждой второй смене цели. Все карты с пояснениями —
в каталоге.</p>
<h3>Кто побеждает</h3>
<p>Маг с 0 жизней и меньше выбывает, его карты уходят в сброс. Побеждает последний живой. Если
все оставшиеся падают разом — победителей нет.</p>
<h3>Честно и быстро</h3>
<p>Одновременные действия упорядочивает ведущий: кто успел первым, тот и сдул. Если заклинание
уже сменило цель, ваше действие не сыграется и карта останется у вас. Карты в руках не видит
никто, кроме хозяина; колода тасуется всеми игроками вместе.</p>
"""

NEVERMORE_RULES = """
<h2>Правила «Невермора»</h2>
<p>Игра для 3–6 игроков о драфте, большинстве мастей и воронах. Здоровье — 5 (3–4 игрока) или 4
(5–6 игроков); у каждого в начале одна карта Тёмной магии. Первого сдающего определяют, открывая
карты основной колоды, пока не выпадет ворон.</p>
<h3>Раунд</h3>
<ol>
<li><b>Драфт.</b> Каждому сдают 5 карт. Игроки тайно передают соседу 3 карты, потом 2, потом 1;
направление передачи меняется каждый раунд. Что вы получили, видите только вы.</li>
<li><b>Стая.</b> У кого 5 воронов — стая: 1 урон всем остальным, карта Тёмной магии, +1 ПО, и
раунд сразу кончается.</li>
<li><b>Раскрытие.</b> Жетоны решают порядок мастей (в первом раунде — Атака, Лечение, Сияние,
Победа; дальше порядок скрыт). Названную масть все раскрывают одновременно. Эффект большинства —
разница между своим числом карт и вторым по величине; при равенстве эффект получают все лидеры.
Атака бьёт (4+ карты позволяют ударить всех на 2), Лечение лечит (на полном здоровье — +1 ПО за
3), Сияние даёт карты Светлой магии (5 сияния — +2 здоровья и +1 ПО), Победа даёт ПО. Вороны
тайно уничтожают чужие карты, выкладываемые рубашкой вверх; 3–4 скрытых ворона действуют
последними.</li>
<li><b>Конец раунда.</b> Сдающим становится сосед слева, колода перемешивается заново.</li>
</ol>
<h3>Обличье ворона и победа</h3>
<p>Игрок без здоровья становится вороном: он не набирает очков, но клюёт людей и может вернуться
в человеческий облик (5 карт одной масти или по одной каждой). Побеждает человек с 6 ПО (при
равенстве — больше ПО, потом здоровья), последний оставшийся человек, или ворон, чей клевок
превратил в воронов всех людей. Карты Света и Тьмы играют в свои окна, в порядке от соседа
сдающего.</p>
"""

RULES = {"rumble": RUMBLE_RULES, "circle": CIRCLE_RULES, "nevermore": NEVERMORE_RULES}


def rules(game: str = "rumble") -> str:
    """The rules page of one game (our own summary, in the page's language), with a switch
    between games."""
    from .rules_en import RULES as RULES_EN

    game = game if game in RULES else "rumble"
    games, _, _ = _labels()
    tabs = "".join(
        f'<button type="button" data-action="rules" data-game="{key}"'
        f' aria-pressed="{str(key == game).lower()}">{escape(label)}</button>'
        for key, label in games.items()
    )
    text = RULES_EN[game] if current() == "en" else RULES[game]
    return (
        f'<div class="filters" role="group" aria-label="{say("Игра", "Game")}">{tabs}</div>{text}'
    )
