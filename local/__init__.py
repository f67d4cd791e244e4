"""The local stack: the whole platform on a laptop, with the cloud's handlers unchanged.

`python -m local` starts Amazon's DynamoDB Local, a moto server (EventBridge, Scheduler,
SNS, Secrets Manager, SQS), an HTTP server that plays API Gateway (routes and the JWT
authorizer), a scheduler that fires due one-time schedules, a bus dispatcher that delivers
domain events, and Swagger UI. Everything is read from `infra.registry` and
`tavla.store.schema`; the handlers find the local endpoints through the environment.
"""
