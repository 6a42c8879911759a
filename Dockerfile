FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY clubcomp ./clubcomp
COPY competition ./competition
RUN pip install --no-cache-dir .
COPY . .
RUN SECRET_KEY=build-only python manage.py collectstatic --noinput
EXPOSE 8000
CMD ["sh", "-c", "python manage.py migrate --noinput && python manage.py seed_demo --if-empty && gunicorn clubcomp.wsgi --bind 0.0.0.0:8000 --workers 3 --access-logfile -"]
