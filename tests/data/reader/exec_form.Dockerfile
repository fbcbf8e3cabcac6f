FROM x
RUN ["pip", "install", "x==1"]
CMD ["a",]
ENTRYPOINT []
