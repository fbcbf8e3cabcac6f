
# escape=`
FROM x
RUN a `
