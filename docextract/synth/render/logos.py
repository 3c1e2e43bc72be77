"""A drawn company logo (a coloured mark with the name's initials) for renderers that print one.

An image only: it adds no words to the page's text layer, just what a letterhead looks like.
"""

from __future__ import annotations

import base64
import io
import random

from PIL import Image, ImageDraw, ImageFont


def logo_png(name: str, rng: random.Random, data_url: bool = False) -> bytes | str:
    """A PNG of a circle, square or bar in a random colour with the name's initials; as a data URL if asked."""
    width, height = rng.choice(((240, 240), (480, 160), (360, 200)))
    colour = tuple(rng.randint(20, 200) for _ in range(3))
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    shape = rng.choice(("circle", "square", "bar"))
    side = min(width, height) - 20
    if shape == "circle":
        draw.ellipse((10, 10, 10 + side, 10 + side), fill=colour)
    elif shape == "square":
        draw.rounded_rectangle((10, 10, 10 + side, 10 + side), radius=side // 6, fill=colour)
    else:
        draw.rectangle((10, height // 2 - 12, width - 10, height // 2 + 12), fill=colour)
    initials = "".join(word[0] for word in name.split() if word[:1].isalpha())[:3].upper() or "X"
    font = ImageFont.load_default(size=side // 3) if hasattr(ImageFont, "load_default") else None
    draw.text((10 + side // 2, 10 + side // 2), initials, fill="white" if shape != "bar" else colour, font=font,
              anchor="mm")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    data = buffer.getvalue()
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii") if data_url else data
