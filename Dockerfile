# One image for the web server, the workers and migrations; the command picks the role.
FROM node:20-bookworm-slim AS frontend
WORKDIR /app/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 TANDEM_DATA_DIR=/data
WORKDIR /app
RUN useradd --create-home --uid 1000 tandem && mkdir -p /data/media && chown -R tandem /data
COPY requirements.txt ./
RUN python -m venv /app/.venv && /app/.venv/bin/pip install --no-cache-dir -r requirements.txt
COPY . .
COPY --from=frontend /app/frontend/dist ./frontend/dist
RUN DJANGO_SECRET_KEY=collectstatic-only /app/.venv/bin/python manage.py collectstatic --noinput -v0
USER tandem
EXPOSE 8000
CMD ["scripts/web"]
