"""Tavla: the rules layer and services shared by every Lambda function."""
