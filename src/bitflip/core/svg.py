"""Boards as SVG: a pure function, used by notebooks (``Board._repr_svg_``) and the web app."""

from __future__ import annotations

from bitflip.core.board import Board


def board_svg(
    board: Board,
    *,
    cell: int = 40,
    show_legal: bool = True,
    last_move: bool = True,
    coordinates: bool = True,
) -> str:
    """An SVG picture of ``board``: discs, legal-move dots, the last move marked."""
    n = board.size
    margin = cell // 2 if coordinates else 0
    side = n * cell + 2 * margin
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" '
        f'width="{side}" height="{side}">',
        f'<rect x="0" y="0" width="{side}" height="{side}" fill="#1b4d2e"/>',
        f'<rect x="{margin}" y="{margin}" width="{n * cell}" height="{n * cell}" fill="#2e8b57"/>',
    ]
    for i in range(n + 1):
        p = margin + i * cell
        out.append(
            f'<line x1="{margin}" y1="{p}" x2="{margin + n * cell}" y2="{p}" stroke="#000"/>'
        )
        out.append(
            f'<line x1="{p}" y1="{margin}" x2="{p}" y2="{margin + n * cell}" stroke="#000"/>'
        )
    if coordinates:
        for i in range(n):
            c = margin + i * cell + cell // 2
            fs = cell // 3
            out.append(
                f'<text x="{c}" y="{margin * 0.75:.0f}" font-size="{fs}" fill="#ddd" '
                f'text-anchor="middle">{"abcdefgh"[i]}</text>'
            )
            out.append(
                f'<text x="{margin / 2:.0f}" y="{c + fs // 3}" font-size="{fs}" fill="#ddd" '
                f'text-anchor="middle">{i + 1}</text>'
            )
    legal = board.legal_mask() if show_legal else 0
    last = board.move_stack[-1] if last_move and board.move_stack else None
    r = cell * 0.42
    for sq in board.geometry.squares:
        row, col = divmod(sq, 8)
        cx, cy = margin + col * cell + cell / 2, margin + row * cell + cell / 2
        color = board.color_at(sq)
        if color is not None:
            fill = "#111" if color == 0 else "#f4f4f4"
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{r:.1f}" fill="{fill}" stroke="#000"/>')
            if sq == last:
                out.append(f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.08:.1f}" fill="#e33"/>')
        elif legal >> sq & 1:
            out.append(
                f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.1:.1f}" fill="#000" opacity="0.35"/>'
            )
    out.append("</svg>")
    return "".join(out)
